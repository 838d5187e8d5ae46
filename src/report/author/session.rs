//! What `play` and `record` show of a game as it goes: the opening, what the reference
//! made of each line, the legal inputs, and the prompt; and what `record`, `gen` and
//! `variant new` say they wrote.

use std::path::Path;

use crate::author::record::Fed;
use crate::games::{Protocol, Session};

/// `play`'s help, shown once at a terminal.
pub const PLAY_HELP: &str =
    "type a move; `?` lists the legal inputs, `:N` plays the N-th, `:quit` ends\n";

/// `record`'s help, shown once at a terminal.
pub const RECORD_HELP: &str = "type a line to send it; `?` lists the legal inputs, `:N` sends \
the N-th, `:undo` takes back the last line, `:done` (or end of input) writes the scenario\n";

/// The opening, and the board after it where answers do not show it.
pub fn opening(text: &str, session: &dyn Session, protocol: Protocol) -> String {
    format!("{text}{}", board(session, protocol))
}

/// The board where answers do not show it (call protocols), else nothing.
fn board(session: &dyn Session, protocol: Protocol) -> String {
    match protocol {
        Protocol::Call => session.board_view().unwrap_or_default(),
        Protocol::Program => String::new(),
    }
}

/// The prompt: a program's output may not end its line, so it gets a line of its own.
pub fn prompt(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Program => "\n> ",
        Protocol::Call => "> ",
    }
}

/// The legal inputs, numbered for `:N`, as a block.
pub fn legal_inputs(inputs: &[String]) -> String {
    format!("{}\n", numbered(inputs))
}

/// A line read from a pipe, shown as if typed at the prompt.
pub fn echoed(line: &str) -> String {
    format!("> {line}\n")
}

/// A line the reference played as the opponent.
pub fn reference_played(line: &str) -> String {
    format!("reference: {line}\n")
}

/// The end of a game played, or recorded at a prompt.
pub fn game_over(played: bool) -> &'static str {
    match played {
        true => "\nthe game is over\n",
        false => "the game is over\n",
    }
}

/// `:undo` with no line to take back.
pub const NOTHING_TO_TAKE_BACK: &str = "nothing to take back\n";

/// After `:undo` took a line back.
pub fn taken_back(session: &dyn Session, protocol: Protocol) -> String {
    format!("taken back\n{}", board(session, protocol))
}

/// A line of `record`'s input that was not recorded.
pub fn not_recorded(number: usize, described: &str) -> String {
    format!("input {number}: {described}")
}

/// What `record` wrote.
pub fn recorded(lines: usize, out: &Path, skipped: usize) -> String {
    let skipped = match skipped {
        0 => String::new(),
        n => format!(" ({n} not recorded)"),
    };
    format!("recorded {lines} line(s) to {}{skipped}\n", out.display())
}

/// What `gen` wrote.
pub fn generated(games: usize, dialect: &str, out: &Path) -> String {
    format!(
        "wrote {games} random game(s) of {dialect} to {}\n",
        out.display()
    )
}

/// What `variant new` wrote.
pub fn variant_written(path: &Path, game: &str, base: &str, name: &str) -> String {
    format!(
        "wrote {} (a variant of {game}/{base}); scenarios name it as dialect = \"{name}\"\n",
        path.display()
    )
}

/// What a person sees after a line: the answer, the board where answers do not show it,
/// or why the line was refused.
pub fn describe(line: &str, fed: &Fed, session: &dyn Session, protocol: Protocol) -> String {
    match fed {
        Fed::Recorded { reply, refused } => {
            let mut text = reply.text.clone();
            if *refused {
                text.push_str(&format!("({line:?} is refused by the rules; recorded)\n"));
            }
            if !text.is_empty() && !text.ends_with('\n') && protocol == Protocol::Call {
                text.push('\n');
            }
            format!("{text}{}", board(session, protocol))
        }
        Fed::Refused { reply, reason } => {
            let answer = match reply.text.lines().next() {
                Some(first) if !first.trim().is_empty() => {
                    format!(" (the reference answers {:?})", first.trim_end())
                }
                _ => String::new(),
            };
            format!("not played: {line:?}{answer}: {reason}\n")
        }
        Fed::Ended => "the game is over\n".to_string(),
    }
}

/// The legal inputs, numbered for `:N`.
pub fn numbered(inputs: &[String]) -> String {
    if inputs.is_empty() {
        return "no input is legal now".to_string();
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| format!("  :{} {input}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}
