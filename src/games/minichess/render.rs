//! Small text pictures of boards for reports.

use super::board::{Board, Color};

/// The board as a text grid, one line per row (row 0 first), three characters per cell:
/// `w` white, `b` black, `.` empty. The `highlight` square, if any and on the board, is
/// shown in brackets, e.g. `[b]`, so a report can point at the pawn that just moved or the
/// cell that differs.
///
/// ```text
///  .  w  w
/// [b] .  .
///  b  .  b
/// ```
pub fn render_grid(board: &Board, highlight: Option<(usize, usize)>) -> String {
    let size = board.size();
    let mut out = String::with_capacity(size * (3 * size + 1));
    for row in 0..size {
        let mut line = String::with_capacity(3 * size);
        for col in 0..size {
            let symbol = match board.pawn_at(row, col) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            };
            let (open, close) = if highlight == Some((row, col)) {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            line.push(open);
            line.push(symbol);
            line.push(close);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render_grid(self, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_with_and_without_highlight() {
        let board = Board::from_rows(&[[0, 1, 1], [2, 0, 0], [2, 0, 2]]).unwrap();
        assert_eq!(render_grid(&board, None), " .  w  w\n b  .  .\n b  .  b\n");
        assert_eq!(
            render_grid(&board, Some((1, 0))),
            " .  w  w\n[b] .  .\n b  .  b\n"
        );
        assert_eq!(
            render_grid(&board, Some((1, 2))),
            " .  w  w\n b  . [.]\n b  .  b\n"
        );
        // Off-board highlights are ignored rather than rejected.
        assert_eq!(render_grid(&board, Some((7, 7))), board.to_string());
    }
}
