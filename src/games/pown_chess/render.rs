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
use super::options::{BoardSize, CounterPlace, PownOptions};
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

/// The centred lines above the board that the options ask for: the move counter (which
/// carries the score) when it is on, beside the score line where the options put it there;
/// else the score when that is on.
pub fn title_lines(board: &Board, options: &PownOptions, move_number: usize) -> Vec<String> {
    let width = board_width(board.size());
    let score = || center(&score_text(board), width);
    let counter = || center(&counter_text(board, move_number), width);
    match (options.move_counter, options.score_header) {
        (false, false) => Vec::new(),
        (false, true) => vec![score()],
        (true, false) => vec![counter()],
        (true, true) => match options.counter_place {
            CounterPlace::Alone => vec![counter()],
            CounterPlace::AboveScore => vec![counter(), score()],
            CounterPlace::BelowScore => vec![score(), counter()],
        },
    }
}

/// What `display_board()` prints: the optional title lines, then the grid.
pub fn display_board(board: &Board, options: &PownOptions, move_number: usize) -> String {
    let mut shown = String::new();
    for title in title_lines(board, options, move_number) {
        shown.push_str(&title);
        shown.push('\n');
    }
    shown.push_str(&render_grid(board));
    shown
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
        assert!(title_lines(&board, &PownOptions::default(), 3).is_empty());
    }

    #[test]
    fn the_counter_may_sit_beside_the_score_line() {
        let board = Board::new(BoardSize::Eight);
        let score = "             w: 8 b: 8              ";
        let counter = "        Move #3 -- w: 8 b:8         ";
        for (place, lines) in [
            (CounterPlace::Alone, vec![counter]),
            (CounterPlace::AboveScore, vec![counter, score]),
            (CounterPlace::BelowScore, vec![score, counter]),
        ] {
            let options = PownOptions {
                score_header: true,
                move_counter: true,
                counter_place: place,
                ..PownOptions::default()
            };
            assert_eq!(title_lines(&board, &options, 3), lines, "{place:?}");
            // Without the score line the counter stands alone wherever it is placed.
            let counter_only = PownOptions {
                score_header: false,
                ..options
            };
            assert_eq!(title_lines(&board, &counter_only, 3), vec![counter]);
        }
    }
}
