//! Notes for a divergence in a chess scenario: the rule the divergent step exercises
//! ("castling: a legal queen-side castle was refused"), the moves the reference accepted
//! before it in this game (since the last `new_game`), and the position there as FEN and as a
//! board, so the case can be set up and replayed. The shorter sequences of those moves that
//! reach the same rule are a [`ChessCase`], for the harness to try on the submission.

use super::ecs198f::ScenarioOptions;
use super::moves::Move;
use super::position::Position;
use super::render::board_lines;
use super::rules::{classify_text, History, Kind, Rule};
use super::Outcome;
use crate::games::CaseShrink;

/// Most moves listed in a note; the FEN carries the rest.
const MAX_LISTED: usize = 60;

/// One game as replayed on the reference: the moves it accepted, with their history.
struct Replayed {
    played: Vec<String>,
    position: Position,
    history: History,
}

fn replay(options: ScenarioOptions, lines: &[&str]) -> Replayed {
    let mut game = options.new_game();
    let mut played = Vec::new();
    let mut history = History::default();
    for line in lines {
        if let ["play_move", mv] = line.split_whitespace().collect::<Vec<_>>().as_slice() {
            let before = *game.position();
            if !game.play_move(mv).is_empty() {
                if let Some(m) = played_move(&before, game.position()) {
                    history.record(&before, &m);
                }
                played.push(mv.to_string());
            }
        }
    }
    Replayed {
        played,
        position: *game.position(),
        history,
    }
}

/// The legal move of `before` that leads to `after`.
fn played_move(before: &Position, after: &Position) -> Option<Move> {
    before.legal_moves().into_iter().find(|m| {
        let mut next = *before;
        next.play_unchecked(*m);
        next == *after
    })
}

/// Replays the moves sent before the divergent step (the last line of `sent`) on the
/// reference and describes where the game stood and which rule the step is about.
pub fn notes(options: ScenarioOptions, sent: &[&str], actual: &str) -> Vec<String> {
    let game = this_game(sent);
    let (before, step) = match game.split_last() {
        Some((step, before)) => (before, *step),
        None => (game, ""),
    };
    let replayed = replay(options, before);
    let mut notes = Vec::new();
    let rule = step_rule(&replayed, before, step);
    if let Some(text) = describe(&replayed, rule.as_ref(), step, actual) {
        notes.push(text);
    }
    let played = &replayed.played;
    let moves = match played.len() {
        0 => {
            notes.push("before this step: the start position, no move played yet".into());
            return notes;
        }
        n if n > MAX_LISTED => format!(
            "moves played before this step ({n}): ... {}",
            played[n - MAX_LISTED..].join(" ")
        ),
        n => format!("moves played before this step ({n}): {}", played.join(" ")),
    };
    notes.push(moves);
    notes.push(format!(
        "position before this step (FEN): {}",
        replayed.position.to_fen()
    ));
    if rule.is_some() {
        notes.push(
            board_lines(&board_rows(&replayed.position))
                .trim_end()
                .to_string(),
        );
    }
    notes
}

/// The rule of a `play_move` step, or for a probe, of the last move sent before it.
fn step_rule(replayed: &Replayed, before: &[&str], step: &str) -> Option<Rule> {
    let words: Vec<&str> = step.split_whitespace().collect();
    match words.as_slice() {
        ["play_move", mv] => Some(classify_text(&replayed.position, &replayed.history, mv)),
        ["play_move"] => Some(classify_text(&replayed.position, &replayed.history, "")),
        ["board"] => {
            let last = before.iter().rposition(|l| l.starts_with("play_move"))?;
            let earlier = replay(ScenarioOptions::default(), &before[..last]);
            let mv = before[last].split_whitespace().nth(1).unwrap_or("");
            Some(classify_text(&earlier.position, &earlier.history, mv))
        }
        _ => None,
    }
}

/// The rule, in words, that the submission's answer broke.
fn describe(replayed: &Replayed, rule: Option<&Rule>, step: &str, actual: &str) -> Option<String> {
    let command = step.split_whitespace().next().unwrap_or("");
    match (command, rule) {
        ("play_move", Some(rule)) => Some(rule.failure(accepted(actual))),
        ("board", Some(rule)) if rule.legal => Some(format!(
            "{}: the board after a legal {} is wrong",
            rule.kind.name(),
            rule.text
        )),
        ("board", Some(rule)) => Some(format!(
            "{}: the board changed after {}, which is refused",
            rule.kind.name(),
            rule.text
        )),
        ("result", _) => Some(match replayed.position.outcome() {
            Some(Outcome::Checkmate { .. }) => {
                format!(
                    "{}: a checkmate is not reported by result",
                    Kind::GameEnd.name()
                )
            }
            Some(_) => format!(
                "{}: a stalemate is not reported by result",
                Kind::GameEnd.name()
            ),
            None if replayed.position.is_check() => format!(
                "{}: a check that can be answered does not end the game",
                Kind::GameEnd.name()
            ),
            None => format!(
                "{}: result is set while the game goes on",
                Kind::GameEnd.name()
            ),
        }),
        _ => None,
    }
}

/// Whether an answer (judged part or raw return value) played the move; `None` for an error.
fn accepted(actual: &str) -> Option<bool> {
    let answer = actual.trim();
    // `None` (a function that forgot its return) says neither: the move may have been played.
    if answer.starts_with("!error") || answer.is_empty() || answer == "None" {
        return None;
    }
    Some(!(answer == "''" || answer == "\"\"" || answer == "refused"))
}

/// A `play_move` step and the moves the reference accepted before it in its game.
pub struct ChessCase {
    options: ScenarioOptions,
    played: Vec<String>,
    mv: String,
    rule: Rule,
}

/// The case of the divergent `play_move` step (the last line of `sent`); `None` for any other
/// step, or one that is the first of its game.
pub fn case(options: ScenarioOptions, sent: &[&str]) -> Option<ChessCase> {
    let (step, before) = this_game(sent).split_last()?;
    let ["play_move", mv] = step.split_whitespace().collect::<Vec<_>>()[..] else {
        return None;
    };
    let replayed = replay(options, before);
    let rule = classify_text(&replayed.position, &replayed.history, mv);
    (!replayed.played.is_empty()).then(|| ChessCase {
        options,
        played: replayed.played,
        mv: mv.to_string(),
        rule,
    })
}

/// The lines of the game `sent` ends in: a battery plays many games in one session.
fn this_game<'s>(sent: &'s [&'s str]) -> &'s [&'s str] {
    let start = sent
        .iter()
        .rposition(|line| line.trim() == "new_game")
        .map_or(0, |i| i + 1);
    &sent[start..]
}

fn move_lines(moves: &[String]) -> Vec<String> {
    moves.iter().map(|m| format!("play_move {m}")).collect()
}

fn replay_moves(options: ScenarioOptions, moves: &[String]) -> Replayed {
    let lines = move_lines(moves);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    replay(options, &refs)
}

impl CaseShrink for ChessCase {
    fn items(&self) -> &[String] {
        &self.played
    }

    /// Every kept move is still legal, and the step still exercises the same rule.
    fn same_case(&self, kept: &[String]) -> bool {
        let replayed = replay_moves(self.options, kept);
        replayed.played.len() == kept.len()
            && classify_text(&replayed.position, &replayed.history, &self.mv) == self.rule
    }

    fn lines(&self, kept: &[String]) -> Vec<String> {
        let mut lines = move_lines(kept);
        lines.push(format!("play_move {}", self.mv));
        lines
    }

    fn worth_noting(&self, kept: &[String]) -> bool {
        kept.len() < self.played.len()
    }

    fn note(&self, kept: &[String]) -> String {
        let mv = &self.mv;
        if kept.is_empty() {
            return format!("shortest case: play_move {mv} from the start position");
        }
        let position = replay_moves(self.options, kept).position;
        format!(
            "shortest case ({} moves, then play_move {mv}): {}\nthat position (FEN {}):\n{}",
            kept.len(),
            kept.join(" "),
            position.to_fen(),
            board_lines(&board_rows(&position)).trim_end()
        )
    }

    /// After the rule and the moves played before the step.
    fn after_notes(&self) -> usize {
        2
    }
}

fn board_rows(position: &Position) -> [[char; 8]; 8] {
    super::logic::ChessLogic::from_position(*position, Default::default()).board_rows()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_accepted_moves_and_the_position() {
        let sent = [
            "play_move e2e4",
            "play_move e7e4",
            "board",
            "play_move e7e5",
            "play_move g1f3",
        ];
        assert_eq!(
            notes(ScenarioOptions::default(), &sent, "''"),
            [
                "move shape: a legal move g1f3 was refused",
                "moves played before this step (2): e2e4 e7e5",
                "position before this step (FEN): rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
                "rnbqkbnr\npppp.ppp\n........\n....p...\n....P...\n........\nPPPP.PPP\nRNBQKBNR",
            ]
        );
    }

    #[test]
    fn names_the_start_and_bounds_long_games() {
        assert_eq!(
            notes(ScenarioOptions::default(), &["play_move e7e5", "board"], ""),
            [
                "move shape: the board changed after a move e7e5 of the side not to move, which is refused",
                "before this step: the start position, no move played yet"
            ]
        );
        let shuffle = [
            "play_move g1f3",
            "play_move g8f6",
            "play_move f3g1",
            "play_move f6g8",
        ];
        let long: Vec<&str> = shuffle.iter().copied().cycle().take(81).collect();
        let listed = &notes(ScenarioOptions::default(), &long, "")[1];
        assert!(listed.starts_with("moves played before this step (80): ... "));
        assert_eq!(listed.split(' ').count(), 7 + MAX_LISTED);
    }

    #[test]
    fn a_battery_failure_names_its_rule_and_its_shortest_case() {
        let sent = [
            "play_move a2a3",
            "new_game",
            "play_move e2e4",
            "play_move e7e5",
            "play_move g1f3",
            "play_move g8f6",
            "play_move a2a3",
            "play_move b8c6",
            "play_move f1c4",
            "play_move f8c5",
            "play_move e1g1",
        ];
        let notes = notes(ScenarioOptions::default(), &sent, "refused\n");
        assert_eq!(
            notes[0],
            "castling: a legal king-side castle e1g1 was refused"
        );
        assert_eq!(
            notes[1],
            "moves played before this step (8): e2e4 e7e5 g1f3 g8f6 a2a3 b8c6 f1c4 f8c5"
        );
        // The case offered to shorten: this game's moves, the castle replayed last.
        let case = case(ScenarioOptions::default(), &sent).unwrap();
        assert_eq!(case.items().len(), 8);
        let shrunk =
            crate::shrink::ddmin(case.items().to_vec(), 400, &mut |kept| case.same_case(kept));
        let note = case.note(&shrunk.items);
        assert!(
            note.starts_with("shortest case (6 moves, then play_move e1g1): "),
            "{note}"
        );
        assert!(note.contains("\nrnbqk"), "{note}");
        let lines = case.lines(&shrunk.items);
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[6], "play_move e1g1");
    }

    #[test]
    fn a_result_that_misses_a_mate_is_named() {
        let sent = [
            "play_move f2f3",
            "play_move e7e5",
            "play_move g2g4",
            "play_move d8h4",
            "result",
        ];
        assert_eq!(
            notes(ScenarioOptions::default(), &sent, "''")[0],
            "game end: a checkmate is not reported by result"
        );
    }

    #[test]
    fn an_answer_of_none_says_neither_played_nor_refused() {
        let sent = ["play_move e2-e4"];
        let found = notes(ScenarioOptions::default(), &sent, "None");
        assert_eq!(
            found[0],
            "move shape: a malformed move \"e2-e4\" was answered wrongly"
        );
        assert_eq!(accepted("''"), Some(false));
        assert_eq!(accepted("e4"), Some(true));
    }
}
