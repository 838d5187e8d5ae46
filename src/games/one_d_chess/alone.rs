//! A divergence of a call dialect as one call a student can run alone.
//!
//! Every function of the handout takes the board, so the board a call was given and the call
//! itself are the whole case, however many steps of a scenario (a battery plays a hundred)
//! led there: nothing to shorten. The note gives both in the submission's own terms (its
//! function names, argument order and tokens, a variant's included), ready to paste into a
//! Python shell: `board = ['WKi', ...]; move_king(board, 7, 'LEFT')`.

use super::engine::{Board, Direction, Kind, Side, CELLS};
use super::interface::Interface;
use super::project5::{parse, py_str, Command, Project5};
use crate::games::Session;

/// The notes for a divergence after `sent` (its last line the divergent step), replayed on
/// `session`, a fresh reference session of the dialect's functions. The call given is the divergent
/// step's, or for a `board` probe the call before it, after every move made since the last
/// line whose board was compared or set (an earlier move's mistake may show only now).
/// With one call, and `about_rules` (the board or a value differs, not only what the call
/// printed), a note before it gives the rule the call is about, as the reference applies it
/// to that board. `None` where a call takes no board (`create_board`).
pub fn notes(
    mut session: Project5,
    interface: &Interface,
    sent: &[&str],
    about_rules: bool,
) -> Option<Vec<String>> {
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
    let alone = format!(
        "the {what} alone (run {verb} in Python): board = {}; {}",
        board.trim_end(),
        calls.join("; ")
    );
    // With one call, the rule it is about, as the reference applies it to that board.
    let rule = match calls.len() {
        1 if about_rules => parse(sent[last], interface)
            .ok()
            .and_then(|command| rule(session.board(), command)),
        _ => None,
    };
    Some(rule.into_iter().chain([alone]).collect())
}

/// The handout's rule for `command` on `board`, in words, with what it makes of this case.
fn rule(board: &Board, command: Command) -> Option<String> {
    match command {
        Command::Move(position, direction, kind) => {
            let mut after = *board;
            let made = match kind {
                Some(kind) => after.play_kind(position, direction, kind),
                None => after.play(position, direction),
            };
            Some(match made {
                Err(refused) => format!("the reference refuses this move: {refused}"),
                Ok(made) => {
                    let (family, rule) = match made.piece.kind {
                        Kind::King => ("king", "a king slides to the first piece (taking it, own pieces too) or to the last cell"),
                        Kind::Knight => ("knight", "a knight jumps exactly two cells, taking what is there (own pieces too), and stays where that is off the board"),
                    };
                    let here = match made.captured {
                        _ if made.to == made.from => format!("it stays on {}", made.from),
                        Some(taken) => format!(
                            "from {} it lands on {}, taking {}",
                            made.from,
                            made.to,
                            taken.code()
                        ),
                        None => format!("from {} it ends on {}", made.from, made.to),
                    };
                    format!("{family}: {rule}; here {here}")
                }
            })
        }
        Command::IsValidMove(position, side) => {
            let at = usize::try_from(position).ok().filter(|&i| i < CELLS);
            let why = match at.map(|i| board.cells()[i]) {
                None => "it is off the board (0 to 8)".to_string(),
                Some(None) => "the cell is empty".to_string(),
                Some(Some(piece)) if piece.side == side => format!("it holds {}", piece.code()),
                Some(Some(piece)) => format!("it holds the other side's {}", piece.code()),
            };
            let valid = if board.is_valid_move(position, side) {
                "valid"
            } else {
                "not valid"
            };
            Some(format!(
                "valid move: a move is valid from a cell on the board holding one of the player's pieces; position {position} is {valid}: {why}"
            ))
        }
        Command::IsGameOver | Command::WhosTheWinner => Some(format!(
            "game over: the game ends when a king is gone; here {}",
            match board.winner() {
                None => "both kings are on the board",
                Some(Side::White) => "the black king is gone: White wins",
                Some(Side::Black) => "the white king is gone: Black wins",
            }
        )),
        _ => None,
    }
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

    /// The last note (the calls alone), where there are notes.
    fn note_for(interface: &'static Interface, sent: &[&str]) -> Option<String> {
        notes_for(interface, sent)?.pop()
    }

    fn notes_for(interface: &'static Interface, sent: &[&str]) -> Option<Vec<String>> {
        notes(Project5::with(interface), interface, sent, true)
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
    fn one_call_comes_with_its_rule_as_the_reference_applies_it() {
        let rule = |sent: &[&str]| notes_for(&HANDOUT, sent).unwrap()[0].clone();
        let set = "set_board WKi EMPTY EMPTY BKn EMPTY EMPTY EMPTY BKn BKi";
        assert_eq!(
            rule(&[set, "move_king 0 RIGHT", "board"]),
            "king: a king slides to the first piece (taking it, own pieces too) or to the last \
             cell; here from 0 it lands on 3, taking BKn"
        );
        assert!(rule(&[set, "move_knight 7 RIGHT"]).ends_with("; here it stays on 7"));
        assert!(rule(&[set, "move 7 LEFT", "board"]).ends_with("from 7 it ends on 5"));
        assert!(rule(&[set, "is_valid_move -1 BLACK"])
            .ends_with("position -1 is not valid: it is off the board (0 to 8)"));
        assert!(rule(&[set, "is_valid_move 3 WHITE"])
            .ends_with("is not valid: it holds the other side's BKn"));
        let gone = "set_board WKi EMPTY EMPTY BKn EMPTY EMPTY EMPTY BKn EMPTY";
        assert!(rule(&[gone, "is_game_over"]).ends_with("the black king is gone: White wins"));
        // Two calls since the board was seen: which one is wrong is not known.
        let two = notes_for(
            &HANDOUT,
            &[set, "move_king 0 RIGHT", "move 7 LEFT", "board"],
        );
        assert_eq!(two.unwrap().len(), 1);
        // A call that only printed too much kept its rule: the note would name the wrong thing.
        let printed = notes(
            Project5::with(&HANDOUT),
            &HANDOUT,
            &[set, "move_knight 7 LEFT"],
            false,
        );
        let printed = printed.unwrap();
        assert_eq!(printed.len(), 1);
        assert!(printed[0].starts_with("the call alone"), "{printed:?}");
    }

    #[test]
    fn a_call_without_the_board_has_no_note() {
        assert_eq!(note_for(&HANDOUT, &["create_board"]), None);
        assert_eq!(note_for(&HANDOUT, &["create_board", "board"]), None);
    }
}
