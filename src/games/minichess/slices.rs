//! The `steps` and `captures` parts of a `move_maker` answer: its boards sorted out against
//! the board it was given, by the column the moved pawn ends in. A board where one pawn
//! left a square for another in the same column is a step (a straight capture too: that is
//! the steps rule broken), one where it changed column a capture (a diagonal onto an empty
//! square, or across the edge, too). So the rule families of the battery each judge their
//! own boards, and one bug is one family's finding. A board that is no single move, or an
//! answer that is no list of boards, is in both.

use super::functions::{Call, Functions};
use super::notation::{read_rows_list, rows_list_text, Rows};

/// The two parts' texts (sorted boards, in the protocol's form), or `None` when `command`
/// is no `move_maker` call.
pub fn slices(functions: &Functions, command: &str, value: &str) -> Option<(String, String)> {
    let Ok(Call::Maker { board, color }) = functions.parse(command) else {
        return None;
    };
    let Some(boards) = read_rows_list(value) else {
        return Some((value.to_string(), value.to_string()));
    };
    let given = super::notation::rows_of(&board);
    let mover = i64::from(color.code());
    let (mut steps, mut captures) = (Vec::new(), Vec::new());
    for rows in boards {
        match column_change(&given, &rows, mover) {
            Some(false) => steps.push(rows),
            Some(true) => captures.push(rows),
            None => {
                steps.push(rows.clone());
                captures.push(rows);
            }
        }
    }
    steps.sort();
    captures.sort();
    Some((rows_list_text(&steps), rows_list_text(&captures)))
}

/// Whether the one pawn of `mover` that moved between the boards changed column; `None`
/// when `after` is not one pawn leaving one square for another.
fn column_change(before: &Rows, after: &Rows, mover: i64) -> Option<bool> {
    if after.len() != before.len() || after.iter().any(|row| row.len() != before.len()) {
        return None;
    }
    let changed: Vec<(usize, usize)> = before
        .iter()
        .zip(after)
        .enumerate()
        .flat_map(|(r, (b, a))| {
            b.iter()
                .zip(a)
                .enumerate()
                .filter(|(_, (x, y))| x != y)
                .map(move |(c, _)| (r, c))
        })
        .collect();
    let [first, second] = changed.as_slice() else {
        return None;
    };
    let left = |(r, c): (usize, usize)| before[r][c] == mover && after[r][c] == 0;
    let arrived = |(r, c): (usize, usize)| after[r][c] == mover;
    let (from, to) = match (left(*first), left(*second)) {
        (true, false) if arrived(*second) => (*first, *second),
        (false, true) if arrived(*first) => (*second, *first),
        _ => return None,
    };
    Some(from.1 != to.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ecs10() -> &'static Functions {
        super::super::dialect::functions("ecs10").unwrap()
    }

    const GIVEN: &str = "move_maker [[0, 1, 1], [1, 0, 0], [2, 2, 2]] 2";

    #[test]
    fn boards_are_sorted_out_by_the_moved_pawns_column() {
        // The handout's three answers: one step, two captures; a straight capture and a
        // wrapped one are sorted with the rule they break.
        let value = "[[[0, 1, 1], [1, 2, 0], [2, 0, 2]], [[0, 1, 1], [2, 0, 0], [2, 0, 2]], \
                     [[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [2, 0, 0], [0, 2, 2]], \
                     [[0, 1, 1], [1, 0, 2], [0, 2, 2]]]";
        let (steps, captures) = slices(ecs10(), GIVEN, value).unwrap();
        assert_eq!(
            steps,
            "[[[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], \
             [[0, 1, 1], [2, 0, 0], [0, 2, 2]]]"
        );
        assert_eq!(
            captures,
            "[[[0, 1, 1], [1, 0, 2], [0, 2, 2]], [[0, 1, 1], [2, 0, 0], [2, 0, 2]]]"
        );
    }

    #[test]
    fn anything_else_is_in_both_parts() {
        assert_eq!(
            slices(ecs10(), GIVEN, "None"),
            Some(("None".to_string(), "None".to_string()))
        );
        let (steps, captures) =
            slices(ecs10(), GIVEN, "[[[2, 2, 2], [0, 0, 0], [0, 0, 0]]]").unwrap();
        assert_eq!(steps, captures);
        assert_ne!(steps, "[]");
        assert_eq!(
            slices(
                ecs10(),
                "move_chooser [[[0, 1, 1], [1, 0, 0], [2, 2, 2]]] 2",
                "x"
            ),
            None
        );
    }
}
