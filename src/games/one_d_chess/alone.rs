//! A divergence of a call dialect as one call a student can run alone.
//!
//! Every function of the handout takes the board, so the board a call was given and the call
//! itself are the whole case, however many steps of a scenario (a battery plays a hundred)
//! led there: nothing to shorten. The note gives both in the submission's own terms (its
//! function names, argument order and tokens, a variant's included), ready to paste into a
//! Python shell: `board = ['WKi', ...]; move_king(board, 7, 'LEFT')`.

use super::engine::{Direction, Side};
use super::interface::Interface;
use super::project5::{parse, py_str, Command};
use crate::games::Session;

/// The note for a divergence after `sent` (its last line the divergent step), replayed on
/// `session`, a fresh reference session of the dialect. The call given is the divergent
/// step's, or for a `board` probe the call before it, after every move made since the last
/// line whose board was compared or set (an earlier move's mistake may show only now).
/// `None` where one of them calls no function that takes the board (`create_board`).
pub fn note(mut session: Box<dyn Session>, interface: &Interface, sent: &[&str]) -> Option<String> {
    let (step, before) = sent.split_last()?;
    let last = if is_probe(step) {
        before.iter().rposition(|line| !is_probe(line))?
    } else {
        before.len()
    };
    let from = sent[..last]
        .iter()
        .rposition(|line| shows_or_sets_board(line))
        .map_or(0, |at| at + 1);
    // The moves since then (a call that only reads the board is left out), and the last.
    let calls = sent[from..last]
        .iter()
        .filter(|line| matches!(parse(line, interface), Ok(Command::Move(..))))
        .chain([&sent[last]])
        .map(|line| call(interface, line))
        .collect::<Option<Vec<String>>>()?;
    for line in &sent[..from] {
        session.respond(line);
    }
    let board = session.respond("board").text;
    let (what, verb) = match calls.len() {
        1 => ("call", "it"),
        _ => ("calls", "them"),
    };
    Some(format!(
        "the {what} alone (run {verb} in Python): board = {}; {}",
        board.trim_end(),
        calls.join("; ")
    ))
}

/// Whether `line` only shows the board (the harness's own command, no student code).
fn is_probe(line: &str) -> bool {
    line.split_whitespace().next() == Some("board")
}

/// Whether after `line` the program's board is known: it was shown and compared, or set.
fn shows_or_sets_board(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("board" | "set_board" | "create_board")
    )
}

/// The Python call a protocol line makes on a variable `board`, with the interface's name,
/// argument order and tokens; `None` for a line that calls no function taking the board.
fn call(interface: &Interface, line: &str) -> Option<String> {
    let role = line.split_whitespace().next()?;
    let function = interface.functions.get(role)?;
    let (position, side, direction) = match parse(line, interface).ok()? {
        Command::IsValidMove(position, side) => (Some(position), Some(side), None),
        Command::Move(position, direction, _) => (Some(position), None, Some(direction)),
        Command::PrintableBoard | Command::IsGameOver | Command::WhosTheWinner => {
            (None, None, None)
        }
        Command::SetBoard(_) | Command::CreateBoard | Command::ShowBoard => return None,
    };
    let tokens = &interface.tokens;
    let mut args = Vec::new();
    for arg in &function.args {
        args.push(match arg.as_str() {
            "board" => "board".to_string(),
            "position" => position?.to_string(),
            "player" => py_str(match side? {
                Side::White => &tokens.white,
                Side::Black => &tokens.black,
            }),
            "direction" => py_str(match direction? {
                Direction::Left => &tokens.left,
                Direction::Right => &tokens.right,
            }),
            _ => return None,
        });
    }
    args.iter()
        .any(|a| a == "board")
        .then(|| format!("{}({})", function.name, args.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::one_d_chess::interface::{CSC110_FUNCTIONS, HANDOUT};
    use crate::games::one_d_chess::project5::Project5;

    fn note_for(interface: &'static Interface, sent: &[&str]) -> Option<String> {
        note(Box::new(Project5::with(interface)), interface, sent)
    }

    #[test]
    fn a_probe_gives_the_call_before_it_on_the_board_it_was_given() {
        let sent = [
            "set_board WKi EMPTY EMPTY BKn EMPTY EMPTY EMPTY BKn BKi",
            "move_king 0 RIGHT",
            "board",
            "move_knight 7 LEFT",
            "board",
        ];
        let note = note_for(&HANDOUT, &sent).unwrap();
        // The call given is the knight's, on the board the king's capture left.
        assert!(note.ends_with("; move_knight(board, 7, 'LEFT')"), "{note}");
        assert!(
            note.contains("board = ['EMPTY', 'EMPTY', 'EMPTY', 'WKi', 'EMPTY', "),
            "{note}"
        );
    }

    #[test]
    fn the_call_is_written_in_the_submissions_own_terms() {
        // csc110's functions take the same arguments with their own tokens.
        let sent = ["create_board", "printable_board", "is_valid_move 2 WHITE"];
        let note = note_for(&CSC110_FUNCTIONS, &sent).unwrap();
        assert!(
            note.ends_with("; is_valid_move(board, 2, 'White')"),
            "{note}"
        );
        let sent = ["create_board", "move 2 RIGHT"];
        let note = note_for(&CSC110_FUNCTIONS, &sent).unwrap();
        assert!(note.ends_with("; move(board, 2, 'r')"), "{note}");
    }

    #[test]
    fn calls_since_the_board_was_last_seen_are_all_given() {
        // A mistake in the first move shows only at the probe after the second.
        let sent = [
            "set_board WKi EMPTY EMPTY BKn EMPTY EMPTY EMPTY BKn BKi",
            "move_king 0 RIGHT",
            "move_knight 7 LEFT",
            "board",
        ];
        let note = note_for(&HANDOUT, &sent).unwrap();
        assert!(note.starts_with("the calls alone (run them in Python): board = ['WKi', "));
        assert!(
            note.ends_with("; move_king(board, 0, 'RIGHT'); move_knight(board, 7, 'LEFT')"),
            "{note}"
        );
    }

    #[test]
    fn a_call_without_the_board_has_no_note() {
        assert_eq!(note_for(&HANDOUT, &["create_board"]), None);
        assert_eq!(note_for(&HANDOUT, &["create_board", "board"]), None);
    }
}
