//! Notes for a divergence in a chess scenario: the moves the reference accepted before the
//! divergent step and the position there as FEN, so the case can be set up and replayed.

use super::ecs198f::ScenarioOptions;

/// Most moves listed in a note; the FEN carries the rest.
const MAX_LISTED: usize = 60;

/// Replays the moves sent before the divergent step (the last line of `sent`) on the
/// reference and describes where the game stood.
pub fn notes(options: ScenarioOptions, sent: &[&str]) -> Vec<String> {
    let before = &sent[..sent.len().saturating_sub(1)];
    let mut game = options.new_game();
    let mut played = Vec::new();
    for line in before {
        if let ["play_move", mv] = line.split_whitespace().collect::<Vec<_>>().as_slice() {
            if !game.play_move(mv).is_empty() {
                played.push(*mv);
            }
        }
    }
    let moves = match played.len() {
        0 => return vec!["before this step: the start position, no move played yet".into()],
        n if n > MAX_LISTED => format!(
            "moves played before this step ({n}): ... {}",
            played[n - MAX_LISTED..].join(" ")
        ),
        n => format!("moves played before this step ({n}): {}", played.join(" ")),
    };
    vec![
        moves,
        format!("position before this step (FEN): {}", game.fen()),
    ]
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
            notes(ScenarioOptions::default(), &sent),
            [
                "moves played before this step (2): e2e4 e7e5",
                "position before this step (FEN): rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
            ]
        );
    }

    #[test]
    fn names_the_start_and_bounds_long_games() {
        assert_eq!(
            notes(ScenarioOptions::default(), &["play_move e7e5", "board"]),
            ["before this step: the start position, no move played yet"]
        );
        let shuffle = [
            "play_move g1f3",
            "play_move g8f6",
            "play_move f3g1",
            "play_move f6g8",
        ];
        let long: Vec<&str> = shuffle.iter().copied().cycle().take(81).collect();
        let listed = &notes(ScenarioOptions::default(), &long)[0];
        assert!(listed.starts_with("moves played before this step (80): ... "));
        assert_eq!(listed.split(' ').count(), 7 + MAX_LISTED);
    }
}
