//! `display_board()`: the board exactly as seed 002 draws it, with the optional title line.
//!
//! ```text
//!      A   B   C   D   E   F   G   H
//!    +---+---+---+---+---+---+---+---+
//! 1  | w | w | w | w | w | w | w | w |
//!    +---+---+---+---+---+---+---+---+
//! ```
//! Every line, the column header included (it ends with two spaces, not shown above), is
//! `4 * size + 4` characters wide and ends with a newline.

use std::fmt::Write as _;

use super::board::Board;
use super::options::{BoardSize, PownOptions};
use super::square::{Color, Square};

/// The width of every board line: 36 on 8 x 8, 28 on 6 x 6.
pub fn board_width(size: BoardSize) -> usize {
    4 * size.get() + 4
}

/// The board without any title line.
pub fn render_grid(board: &Board) -> String {
    let n = board.size().get();
    let rule = format!("   +{}\n", "---+".repeat(n));
    let mut out = String::from("    ");
    for col in 0..n {
        let _ = write!(out, " {}  ", Square::col_letter(col));
    }
    out.push('\n');
    out.push_str(&rule);
    for row in 0..n {
        let _ = write!(out, "{}  |", row + 1);
        for col in 0..n {
            let cell = Square::new(col, row)
                .and_then(|square| board.piece_at(square))
                .map_or(' ', Color::letter);
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
        out.push_str(&rule);
    }
    out
}

/// Challenge 1's text: `w: 8 b: 8`.
pub fn score_text(board: &Board) -> String {
    format!(
        "w: {} b: {}",
        board.count_pieces(Color::White),
        board.count_pieces(Color::Black)
    )
}

/// Challenge 2's text, spaced exactly as the handout's `Move #17 -- w: 5 b:4`. `move_number`
/// is the number of the move about to be played (1 before the first move).
pub fn counter_text(board: &Board, move_number: usize) -> String {
    format!(
        "Move #{move_number} -- w: {} b:{}",
        board.count_pieces(Color::White),
        board.count_pieces(Color::Black)
    )
}

/// Python's `text.center(width)`: pads with spaces on both sides to `width` characters; an odd
/// padding puts the extra space on the right when `width` is even (on the left when it is
/// odd). Text at least `width` long is returned unchanged.
pub fn center(text: &str, width: usize) -> String {
    let len = text.chars().count();
    let margin = width.saturating_sub(len);
    let left = margin / 2 + (margin & width & 1);
    format!("{}{text}{}", " ".repeat(left), " ".repeat(margin - left))
}

/// The centred line above the board that the options ask for, if any: the move counter (which
/// carries the score) when it is on, else the score when that is on.
pub fn title_line(board: &Board, options: &PownOptions, move_number: usize) -> Option<String> {
    let text = if options.move_counter {
        counter_text(board, move_number)
    } else if options.score_header {
        score_text(board)
    } else {
        return None;
    };
    Some(center(&text, board_width(board.size())))
}

/// What `display_board()` prints: the optional title line, then the grid.
pub fn display_board(board: &Board, options: &PownOptions, move_number: usize) -> String {
    match title_line(board, options, move_number) {
        Some(title) => format!("{title}\n{}", render_grid(board)),
        None => render_grid(board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The starting board of seed 002, byte for byte (trailing spaces included).
    const SEED_BOARD: &str = concat!(
        "     A   B   C   D   E   F   G   H  \n",
        "   +---+---+---+---+---+---+---+---+\n",
        "1  | w | w | w | w | w | w | w | w |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "2  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "3  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "4  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "5  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "6  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "7  |   |   |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+---+---+\n",
        "8  | b | b | b | b | b | b | b | b |\n",
        "   +---+---+---+---+---+---+---+---+\n",
    );

    const SIX_BOARD: &str = concat!(
        "     A   B   C   D   E   F  \n",
        "   +---+---+---+---+---+---+\n",
        "1  | w | w | w | w | w | w |\n",
        "   +---+---+---+---+---+---+\n",
        "2  |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+\n",
        "3  |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+\n",
        "4  |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+\n",
        "5  |   |   |   |   |   |   |\n",
        "   +---+---+---+---+---+---+\n",
        "6  | b | b | b | b | b | b |\n",
        "   +---+---+---+---+---+---+\n",
    );

    #[test]
    fn starting_board_is_the_seed_text() {
        assert_eq!(render_grid(&Board::new(BoardSize::Eight)), SEED_BOARD);
    }

    #[test]
    fn six_by_six_follows_the_same_pattern() {
        assert_eq!(render_grid(&Board::new(BoardSize::Six)), SIX_BOARD);
        assert!(SIX_BOARD.lines().all(|line| line.len() == 28));
        assert!(SEED_BOARD.lines().all(|line| line.len() == 36));
    }

    #[test]
    fn shows_a_position_after_moves() {
        let board = Board::from_rows(
            BoardSize::Six,
            Color::White,
            &["......", ".w....", "......", "..b...", "......", "......"],
        )
        .unwrap();
        let grid = render_grid(&board);
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines[4], "2  |   | w |   |   |   |   |");
        assert_eq!(lines[8], "4  |   |   | b |   |   |   |");
        assert_eq!(lines[2], "1  |   |   |   |   |   |   |");
    }

    #[test]
    fn center_is_pythons_str_center() {
        // Values checked against CPython's str.center.
        assert_eq!(
            center("w: 8 b: 8", 36),
            format!("{}w: 8 b: 8{}", " ".repeat(13), " ".repeat(14))
        );
        assert_eq!(center("ab", 5), "  ab ");
        assert_eq!(center("abc", 6), " abc  ");
        assert_eq!(center("abc", 2), "abc");
        assert_eq!(center("", 3), "   ");
    }

    #[test]
    fn score_header_sits_centred_above_the_board() {
        let options = PownOptions {
            score_header: true,
            ..PownOptions::default()
        };
        let board = Board::new(BoardSize::Eight);
        let shown = display_board(&board, &options, 1);
        let (title, grid) = shown.split_once('\n').unwrap();
        assert_eq!(title, "             w: 8 b: 8              ");
        assert_eq!(grid, SEED_BOARD);
    }

    #[test]
    fn move_counter_replaces_the_score_line_with_the_handout_spacing() {
        let board = Board::from_rows(
            BoardSize::Six,
            Color::White,
            &["ww....", "......", "......", "......", "......", "bbbb.."],
        )
        .unwrap();
        for score_header in [false, true] {
            let options = PownOptions {
                score_header,
                move_counter: true,
                ..PownOptions::with_size(6).unwrap()
            };
            let shown = display_board(&board, &options, 17);
            let title = shown.lines().next().unwrap();
            assert_eq!(title, "    Move #17 -- w: 2 b:4    ");
            assert_eq!(shown.lines().count(), 1 + 14);
        }
    }

    #[test]
    fn no_title_without_options() {
        let board = Board::new(BoardSize::Eight);
        assert_eq!(title_line(&board, &PownOptions::default(), 3), None);
    }
}
