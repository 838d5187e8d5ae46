//! The rule a board of a move list keeps or breaks, in words: a battery family's failure
//! ("rules: captures") says which rule the program got wrong, not only which boards differ.
//!
//! A board is read as the mover's one move from the position the list came from: the square
//! its pawn left and the square it reached. A missing board is a legal move the program did
//! not find (a step or a capture); an extra board breaks one rule, named here.

use super::board::{Board, Color};

/// A square as the handout's lists index it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Square {
    row: usize,
    col: usize,
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// What one board did to `before`, with `color` to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// One of the mover's pawns left `from` and one now stands on `to`; `taken` is what was
    /// on `to` before.
    Moved {
        from: Square,
        to: Square,
        taken: Option<Color>,
    },
    /// A pawn of the mover vanished and none appeared: it moved onto its own side's pawn.
    OntoOwn { from: Square },
    /// Anything else: more than one pawn moved, a pawn appeared, the other side moved.
    Other,
}

fn change(before: &Board, after: &Board, color: Color) -> Change {
    let size = before.size();
    let squares = (0..size).flat_map(|row| (0..size).map(move |col| Square { row, col }));
    let at = |board: &Board, s: Square| board.pawn_at(s.row, s.col);
    let left: Vec<Square> = squares
        .clone()
        .filter(|&s| at(before, s) == Some(color) && at(after, s) != Some(color))
        .collect();
    let reached: Vec<Square> = squares
        .clone()
        .filter(|&s| at(after, s) == Some(color) && at(before, s) != Some(color))
        .collect();
    // Any other change (an opponent's pawn appearing or vanishing elsewhere) is no one move.
    let others_changed = squares.clone().any(|s| {
        let (was, now) = (at(before, s), at(after, s));
        was != now && !left.contains(&s) && !reached.contains(&s)
    });
    let emptied_left = left.iter().all(|&s| at(after, s).is_none());
    match (left.as_slice(), reached.as_slice()) {
        ([from], [to]) if !others_changed && emptied_left => Change::Moved {
            from: *from,
            to: *to,
            taken: at(before, *to),
        },
        ([from], []) if !others_changed && emptied_left => Change::OntoOwn { from: *from },
        _ => Change::Other,
    }
}

/// The rule a missing board (a legal move not returned) follows, with this case.
pub fn missing(before: &Board, after: &Board, color: Color) -> Option<String> {
    match change(before, after, color) {
        Change::Moved { from, to, taken } if from.col == to.col && taken.is_none() => Some(format!(
            "a pawn steps one square straight forward onto an empty square: {color}'s pawn on {from} to {to} was not returned"
        )),
        Change::Moved { from, to, taken: Some(_) } => Some(format!(
            "a pawn captures one square diagonally forward onto the other side's pawn: {color}'s pawn on {from} taking on {to} was not returned"
        )),
        _ => None,
    }
}

/// The rule an extra board (not a move of the position) breaks, with this case.
pub fn extra(before: &Board, after: &Board, color: Color) -> Option<String> {
    let size = before.size() as isize;
    let rule = match change(before, after, color) {
        Change::OntoOwn { from } => {
            format!("a pawn never lands on its own side's pawn: {color}'s pawn on {from} did")
        }
        Change::Moved { from, to, taken } => {
            let rows = to.row as isize - from.row as isize;
            let cols = to.col as isize - from.col as isize;
            let here = format!("{color}'s pawn on {from} to {to}");
            match (rows, cols.abs(), taken) {
                (r, _, _) if r == -color.forward() => {
                    format!(
                        "a pawn never moves backward ({color} moves towards {}): {here}",
                        edge(color)
                    )
                }
                (r, _, _) if r != color.forward() => {
                    format!("a pawn moves one row at a time: {here}")
                }
                (_, c, _) if c == size - 1 && size > 2 => {
                    format!("a pawn never wraps around the board's edge to the other side: {here}")
                }
                (_, c, _) if c > 1 => format!("a pawn moves at most one column sideways: {here}"),
                (_, 0, Some(_)) => format!(
                    "a pawn never captures straight ahead (only diagonally): {here}, taking"
                ),
                (_, 1, None) => format!(
                    "a pawn moves diagonally only to capture, never onto an empty square: {here}"
                ),
                _ => return None,
            }
        }
        Change::Other => "a move list holds the boards one move of one pawn makes: this board \
                          is no single move of the mover's pawns"
            .to_string(),
    };
    Some(rule)
}

fn edge(color: Color) -> &'static str {
    match color {
        Color::White => "the last row",
        Color::Black => "row 0",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[[u8; 3]; 3]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// The handout's example: black to move.
    fn before() -> Board {
        board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]])
    }

    #[test]
    fn a_missing_board_names_the_step_or_capture_it_is() {
        let capture = board(&[[0, 1, 1], [2, 0, 0], [2, 0, 2]]);
        let text = missing(&before(), &capture, Color::Black).unwrap();
        assert!(
            text.starts_with("a pawn captures one square diagonally"),
            "{text}"
        );
        assert!(
            text.contains("black's pawn on row 2, column 1 taking on row 1, column 0"),
            "{text}"
        );
        let step = board(&[[0, 1, 1], [1, 2, 0], [2, 0, 2]]);
        let text = missing(&before(), &step, Color::Black).unwrap();
        assert!(
            text.starts_with("a pawn steps one square straight forward"),
            "{text}"
        );
    }

    #[test]
    fn an_extra_board_names_the_rule_it_breaks() {
        let rule = |after: [[u8; 3]; 3]| extra(&before(), &board(&after), Color::Black).unwrap();
        // Diagonally onto an empty square.
        assert!(rule([[0, 1, 1], [1, 2, 0], [2, 2, 0]])
            .starts_with("a pawn moves diagonally only to capture"));
        // Straight onto the other side's pawn.
        assert!(rule([[0, 1, 1], [2, 0, 0], [0, 2, 2]])
            .starts_with("a pawn never captures straight ahead"));
        // From column 0 to column 2: round the edge.
        assert!(rule([[0, 1, 1], [1, 0, 2], [0, 2, 2]]).starts_with("a pawn never wraps around"));
        // Onto its own pawn.
        assert!(
            rule([[0, 1, 1], [1, 0, 0], [0, 2, 2]]).starts_with("a pawn never lands on its own")
        );
        // Two pawns moved.
        assert!(rule([[0, 1, 1], [1, 2, 2], [2, 0, 0]]).contains("no single move"));
        // Backward, for White (which moves towards the last row).
        let white = board(&[[0, 0, 0], [1, 0, 0], [2, 2, 2]]);
        let back = board(&[[1, 0, 0], [0, 0, 0], [2, 2, 2]]);
        assert!(extra(&white, &back, Color::White)
            .unwrap()
            .starts_with("a pawn never moves backward (white moves towards the last row)"));
    }
}
