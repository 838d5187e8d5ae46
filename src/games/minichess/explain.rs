//! Divergences explained in the game's terms: which boards a move generator missed, added or
//! repeated (each drawn with the moved pawn marked), a board it changed in place, a
//! chooser's answer that is not one of its boards, and an answer returned as tuples.

use std::collections::BTreeMap;

use super::board::{Board, Color};
use super::dialect::Functions;
use super::notation::{self, Rows};
use super::parts::TUPLES;
use super::render::render_grid;
use super::rule_named;

/// Most boards drawn per kind of difference.
const MAX_DRAWN: usize = 6;
/// Boards drawn side by side on one row.
const PER_ROW: usize = 4;
/// The line the adapter adds when a call changed a board it was given.
pub const CHANGED_INPUT: &str = "!changed-input";

/// Notes on a divergent step, given the line sent and its expected and actual output (both
/// already in the compared form: lists of boards sorted, or only the parts a scenario
/// judges).
pub fn explain(functions: &Functions, sent: &str, expected: &str, actual: &str) -> Vec<String> {
    let tuples = format!("!{TUPLES} ");
    let answer = |text: &str| {
        text.lines()
            .find(|line| !line.starts_with(CHANGED_INPUT) && !line.starts_with(&tuples))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let (expected_answer, actual_answer) = (answer(expected), answer(actual));
    let (expected_answer, actual_answer) = (expected_answer.as_str(), actual_answer.as_str());
    let mut notes: Vec<String> = (actual.lines())
        .find_map(|line| line.strip_prefix(&tuples))
        .map(|returned| tuples_note(sent, returned))
        .into_iter()
        .collect();
    if let Some(expected_list) = notation::read_rows_list(expected_answer) {
        let origin = origin(&expected_list);
        let changed = changed_input(actual);
        if let Some(changed) = &changed {
            notes.push(changed_note(
                functions.maker,
                changed,
                &expected_list,
                origin.map(|(given, _)| given),
            ));
        }
        match notation::read_rows_list(actual_answer) {
            Some(actual_list) => notes.extend(multiset_notes(&expected_list, &actual_list, origin)),
            // The answer itself may lie beyond the lines shown with the changed board.
            None if actual_answer.is_empty() && changed.is_some() => {}
            // An exception speaks for itself.
            None if actual_answer.starts_with("!error") => {}
            None if actual_answer != expected_answer => notes.push(format!(
                "{} must return a list of boards (lists of lists); it answered {}",
                functions.maker,
                not_a_list(actual_answer)
            )),
            None => {}
        }
    } else if notation::read_rows(expected_answer).is_some() {
        // The board chosen may be right, only returned as tuples.
        if actual_answer != expected_answer {
            notes.extend(chooser_note(functions.chooser, actual_answer));
        }
    } else if let Some(changed) = changed_input(actual) {
        // Only the input board is judged (the answer is another scenario's concern): the
        // board given is read from the line sent.
        notes.push(changed_note(
            functions.maker,
            &changed,
            &[],
            given_board(sent),
        ));
    }
    notes
}

/// The board argument of a move generator's command line (`move_maker [[0,1],[2,0]] 2`, or
/// `generateMoves 2 [[0,1],[2,0]]`), when it is a valid board.
fn given_board(sent: &str) -> Option<Board> {
    let (_, arguments) = sent.split_once(char::is_whitespace)?;
    let values = notation::json_values(arguments).ok()?;
    values.iter().find_map(|value| {
        let rows = notation::rows_from_value(value, "board").ok()?;
        notation::board_of(&rows).ok()
    })
}

/// The note on a value returned as tuples, `returned` as the call returned it: the handout
/// represents a board as a list of lists.
fn tuples_note(sent: &str, returned: &str) -> String {
    let function = sent.split_whitespace().next().unwrap_or("the call");
    format!(
        "{function} returned tuples where the handout has lists (\"the board is represented \
         as a list of lists\"): it returned `{}`",
        shorten(returned)
    )
}

/// What an answer that is not a list is, in words.
fn not_a_list(answer: &str) -> String {
    if answer == "None" {
        "None (what a call prints is not its return value)".to_string()
    } else if answer.is_empty() {
        "nothing".to_string()
    } else {
        format!("`{}`", shorten(answer))
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    if text.chars().count() > MAX {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    } else {
        text.to_string()
    }
}

fn chooser_note(chooser: &str, answer: &str) -> Option<String> {
    if answer == "None" {
        return Some(format!(
            "{chooser} returned None: it must return the chosen board (printing the board \
             is not returning it)"
        ));
    }
    if answer.starts_with("!error") {
        return None;
    }
    match notation::read_rows(answer) {
        Some(rows) => Some(format!(
            "{chooser} must return one of the boards it was given; it returned a board that \
             is not in the list:\n{}",
            indent(&draw(&rows, None))
        )),
        None => Some(format!(
            "{chooser} must return one of the boards it was given; it answered {}",
            not_a_list(answer)
        )),
    }
}

/// The board shown on a `!changed-input` line of the output, if any.
fn changed_input(actual: &str) -> Option<Rows> {
    actual
        .lines()
        .find_map(|line| line.strip_prefix(CHANGED_INPUT))
        .and_then(notation::read_rows)
}

fn changed_note(maker: &str, after: &Rows, expected: &[Rows], given: Option<Board>) -> String {
    let after_grid = draw(after, given.map(|b| (b, None)));
    let blocks = match given {
        Some(given) => vec![
            with_caption("given:", &render_grid(&given, None)),
            with_caption("after the call:", &after_grid),
        ],
        None => vec![with_caption("after the call:", &after_grid)],
    };
    let mut note = format!(
        "{maker} changed the board it was given (it must leave it as it was; the first \
         changed square in brackets):\n{}",
        indent(&side_by_side(blocks))
    );
    if expected.contains(after) {
        note.push_str(
            "\nthat is one of the moves: a move was played on the given board instead of on a copy",
        );
    }
    note
}

/// Missing, extra and duplicated boards of a move list against the expected one.
fn multiset_notes(
    expected: &[Rows],
    actual: &[Rows],
    origin: Option<(Board, Color)>,
) -> Vec<String> {
    let count = |list: &[Rows]| {
        let mut counts: BTreeMap<Rows, usize> = BTreeMap::new();
        for rows in list {
            *counts.entry(rows.clone()).or_default() += 1;
        }
        counts
    };
    let (want, got) = (count(expected), count(actual));
    let missing: Vec<(Rows, usize)> = want
        .keys()
        .filter(|b| !got.contains_key(*b))
        .map(|b| (b.clone(), 1))
        .collect();
    let extra: Vec<(Rows, usize)> = got
        .iter()
        .filter(|(b, _)| !want.contains_key(*b))
        .map(|(b, &n)| (b.clone(), n))
        .collect();
    let repeated: Vec<(Rows, usize)> = got
        .iter()
        .filter(|(b, &n)| n > 1 && want.contains_key(*b))
        .map(|(b, &n)| (b.clone(), n))
        .collect();
    let mover = origin.map(|(b, color)| (b, Some(color)));
    let mut notes = Vec::new();
    let mut section = |what: &str, boards: &[(Rows, usize)]| {
        if !boards.is_empty() {
            notes.push(format!(
                "{what} ({} board(s), the moved pawn in brackets):\n{}",
                boards.len(),
                indent(&gallery(boards, mover))
            ));
        }
    };
    section("missing: moves it did not return", &missing);
    section("extra: boards that are not moves of the position", &extra);
    section("duplicated: moves returned more than once", &repeated);
    // The rule each missing or extra board is about, once each.
    if let Some((before, color)) = origin {
        let named = |boards: &[(Rows, usize)], rule: RuleOf, lead: &str| -> Vec<String> {
            let mut found: Vec<String> = Vec::new();
            for (rows, _) in boards.iter().take(MAX_DRAWN) {
                let after = notation::board_of(rows).ok();
                let text = after.and_then(|after| rule(&before, &after, color));
                if let Some(text) = text.map(|t| format!("{lead}: {t}")) {
                    if !found.contains(&text) {
                        found.push(text);
                    }
                }
            }
            found
        };
        notes.extend(named(&missing, rule_named::missing, "not found"));
        notes.extend(named(&extra, rule_named::extra, "rule broken"));
    }
    notes
}

/// What names the rule of a board one move from a position.
type RuleOf = fn(&Board, &Board, Color) -> Option<String>;

/// The position and mover whose moves are exactly `expected` (or include them all), when
/// only one fits. Every expected board is one move away from it, so undoing each single move
/// that could have produced the first board gives the candidates.
fn origin(expected: &[Rows]) -> Option<(Board, Color)> {
    let boards: Vec<Board> = expected
        .iter()
        .map(|rows| notation::board_of(rows))
        .collect::<Result<_, _>>()
        .ok()?;
    let first = boards.first()?;
    let mut sorted = boards.clone();
    sorted.sort_by_key(notation::rows_of);
    // Exactly its moves (a whole move list), else a position some of whose moves they are (a
    // battery family's slice: its captures, say), where only one position fits either way.
    let mut exact: Vec<(Board, Color)> = Vec::new();
    let mut within: Vec<(Board, Color)> = Vec::new();
    for color in [Color::White, Color::Black] {
        for before in predecessors(first, color) {
            let mut successors = before.successors(color);
            successors.sort_by_key(notation::rows_of);
            let candidate = (before, color);
            if successors == sorted && !exact.contains(&candidate) {
                exact.push(candidate);
            }
            if sorted.iter().all(|b| successors.contains(b)) && !within.contains(&candidate) {
                within.push(candidate);
            }
        }
    }
    match (exact.as_slice(), within.as_slice()) {
        ([only], _) | ([], [only]) => Some(*only),
        _ => None,
    }
}

/// Boards from which one move of `color` (forward, or a diagonal capture) gives `after`.
fn predecessors(after: &Board, color: Color) -> Vec<Board> {
    let size = after.size() as isize;
    let rows = after.to_rows();
    let mut found = Vec::new();
    for (row, col) in after.pawns(color) {
        let from_row = row as isize - color.forward();
        if !(0..size).contains(&from_row) {
            continue;
        }
        for dc in [-1isize, 0, 1] {
            let from_col = col as isize + dc;
            if !(0..size).contains(&from_col) || rows[from_row as usize][from_col as usize] != 0 {
                continue;
            }
            let mut before = rows.clone();
            before[from_row as usize][from_col as usize] = color.code();
            before[row][col] = if dc == 0 { 0 } else { color.opponent().code() };
            if let Ok(board) = Board::from_rows(&before) {
                found.push(board);
            }
        }
    }
    found
}

/// A board drawn as a grid. With the position it came from, the square marked is the first
/// that now holds a pawn of the mover (or, without a mover, the first that changed).
fn draw(rows: &Rows, from: Option<(Board, Option<Color>)>) -> String {
    let Ok(board) = notation::board_of(rows) else {
        return format!(
            "{} (not a valid board)",
            shorten(&notation::rows_text(rows))
        );
    };
    let mark = from.and_then(|(before, mover)| {
        (0..board.size())
            .flat_map(|r| (0..board.size()).map(move |c| (r, c)))
            .find(|&(r, c)| {
                let now = board.pawn_at(r, c);
                match mover {
                    Some(color) => now == Some(color) && before.pawn_at(r, c) != Some(color),
                    None => now != before.pawn_at(r, c),
                }
            })
    });
    render_grid(&board, mark)
}

/// A grid's lines under a caption.
fn with_caption(caption: &str, grid: &str) -> Vec<String> {
    std::iter::once(caption.to_string())
        .chain(grid.lines().map(str::to_string))
        .collect()
}

/// Boards drawn side by side, a few to a row, each captioned with how often it came.
fn gallery(boards: &[(Rows, usize)], from: Option<(Board, Option<Color>)>) -> String {
    let blocks: Vec<Vec<String>> = boards
        .iter()
        .take(MAX_DRAWN)
        .map(|(rows, times)| {
            let grid = draw(rows, from);
            if *times > 1 {
                with_caption(&format!("{times} times:"), &grid)
            } else {
                grid.lines().map(str::to_string).collect()
            }
        })
        .collect();
    let mut out = side_by_side(blocks);
    if boards.len() > MAX_DRAWN {
        out.push_str(&format!("\n... and {} more", boards.len() - MAX_DRAWN));
    }
    out
}

/// Blocks of lines laid out side by side, [`PER_ROW`] to a row.
fn side_by_side(mut blocks: Vec<Vec<String>>) -> String {
    let mut out = Vec::new();
    for row in blocks.chunks_mut(PER_ROW) {
        let height = row.iter().map(Vec::len).max().unwrap_or(0);
        let width = row
            .iter()
            .flat_map(|b| b.iter().map(|l| l.chars().count()))
            .max()
            .unwrap_or(0);
        for block in row.iter_mut() {
            // Captions stay on top; short blocks are padded below.
            block.resize(height, String::new());
        }
        for line in 0..height {
            let joined: Vec<String> = row
                .iter()
                .map(|block| format!("{:<width$}", block[line]))
                .collect();
            out.push(joined.join("    ").trim_end().to_string());
        }
        out.push(String::new());
    }
    out.pop();
    out.join("\n")
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::dialect::functions;
    use super::*;

    const EXAMPLE_MOVES: &str = "[[[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], [[0, 1, 1], [2, 0, 0], [2, 0, 2]]]";

    fn notes(expected: &str, actual: &str) -> String {
        let sent = "move_maker [[0,1,1],[1,0,0],[2,2,2]] 2";
        explain(functions("ecs10").unwrap(), sent, expected, actual).join("\n")
    }

    #[test]
    fn a_changed_input_judged_alone_is_drawn_from_the_board_sent() {
        // A scenario that judges the input board only: no answer on either side.
        let actual = "!changed-input [[2, 2, 2], [1, 0, 0], [0, 1, 1]]\n";
        let text = notes("", actual);
        assert!(
            text.contains("move_maker changed the board it was given"),
            "{text}"
        );
        assert!(
            text.contains("given:") && text.contains("after the call:"),
            "{text}"
        );
    }

    #[test]
    fn finds_the_position_behind_a_move_list() {
        let list = notation::read_rows_list(EXAMPLE_MOVES).unwrap();
        let (board, color) = origin(&list).unwrap();
        assert_eq!(
            board,
            Board::from_rows(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]).unwrap()
        );
        assert_eq!(color, Color::Black);
        assert_eq!(origin(&[]), None);
    }

    #[test]
    fn names_missing_and_extra_boards_with_the_moved_pawn() {
        // The capture is missing; a diagonal step onto an empty square is extra.
        let actual = "[[[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], [[0, 1, 1], [1, 2, 0], [2, 2, 0]]]";
        let text = notes(EXAMPLE_MOVES, actual);
        assert!(
            text.contains("missing: moves it did not return (1 board(s)"),
            "{text}"
        );
        assert!(text.contains("[b] .  ."), "{text}");
        assert!(text.contains("extra: boards that are not moves"), "{text}");
        assert!(text.contains(" w [b] ."), "{text}");
        assert!(!text.contains("duplicated"), "{text}");
        // Each named by its rule.
        assert!(
            text.contains("\nnot found: a pawn captures one square diagonally forward"),
            "{text}"
        );
        assert!(
            text.contains("\nrule broken: a pawn moves diagonally only to capture"),
            "{text}"
        );
    }

    #[test]
    fn names_duplicates_with_their_count() {
        let actual = "[[[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [1, 0, 2], [2, 2, 0]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], [[0, 1, 1], [2, 0, 0], [2, 0, 2]]]";
        let text = notes(EXAMPLE_MOVES, actual);
        assert!(text.contains("duplicated"), "{text}");
        assert!(text.contains("2 times:"), "{text}");
        assert!(
            !text.contains("missing") && !text.contains("extra"),
            "{text}"
        );
    }

    #[test]
    fn shows_a_changed_input_board() {
        let actual = format!("!changed-input [[0, 1, 1], [2, 0, 0], [2, 0, 2]]\n{EXAMPLE_MOVES}");
        let text = notes(&format!("{EXAMPLE_MOVES}\n"), &actual);
        assert!(text.contains("changed the board it was given"), "{text}");
        assert!(
            text.contains("given:") && text.contains("after the call:"),
            "{text}"
        );
        assert!(text.contains("instead of on a copy"), "{text}");
        assert!(!text.contains("must return a list"), "{text}");
    }

    #[test]
    fn explains_a_chooser_answer() {
        let expected = "[[0, 1, 1], [2, 0, 0], [2, 0, 2]]\n";
        assert!(notes(expected, "None\n").contains("printing the board is not returning it"));
        let text = notes(expected, "[[0, 1, 1], [0, 0, 0], [2, 0, 2]]\n");
        assert!(text.contains("not in the list"), "{text}");
        assert!(notes(expected, "!error TypeError: x\n").is_empty());
    }

    #[test]
    fn an_answer_returned_as_tuples_is_named_with_what_was_returned() {
        let actual = format!(
            "{EXAMPLE_MOVES}\n!tuples [((0, 1, 1), (1, 0, 2), (2, 2, 0)), ((0, 1, 1), (1, 2, 0), (2, 0, 2))]\n"
        );
        let text = notes(&format!("{EXAMPLE_MOVES}\n"), &actual);
        assert!(
            text.starts_with("move_maker returned tuples where the handout has lists"),
            "{text}"
        );
        assert!(
            text.contains("`[((0, 1, 1), (1, 0, 2), (2, 2, 0)), "),
            "{text}"
        );
        // The boards themselves are the same: nothing else to say.
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn a_non_list_answer_is_named() {
        let text = notes(EXAMPLE_MOVES, "None");
        assert!(text.contains("must return a list of boards"), "{text}");
        let text = notes("[]", "[[[1, 9], [0]]]");
        assert!(text.contains("not a valid board"), "{text}");
    }
}
