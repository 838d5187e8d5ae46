//! miniChess matches: the submission plays whole games against the reference players, as
//! the course's driver plays it: on its turn it is asked for its moves (`move_maker`), then
//! to choose among exactly the boards it returned (`move_chooser`), and the chosen board is
//! the next position. Any failure on its turn (no answer, an answer that is not a list of
//! boards, a choice not in the list or not a legal move) loses that game.

mod submission;

use submission::{Failure, Submission};

use super::board::{Board, Color};
use super::dialect;
use super::game::{play_game, EndReason, GameRecord};
use super::players::{GreedyPlayer, PerfectPlayer, Player, RandomPlayer};
use super::render::render_grid;
use super::rules::WinReason;
use super::AlphaBetaPlayer;
use crate::games::matches::{Conversation, GameResult, MatchDef, MatchPlay};
use crate::games::{Dialect, OptionError};
use crate::rng::Rng;

/// The reference players a match may name.
pub const OPPONENTS: [&str; 4] = ["random", "greedy", "alpha-beta", "perfect"];
/// Depth of the `alpha-beta` opponent.
const ALPHA_BETA_DEPTH: u32 = 4;
/// Positions the `perfect` opponent's solver may visit per move: exact up to 5 x 5, and
/// bounded in time on larger boards, where it plays alpha-beta until the solver settles.
const PERFECT_BUDGET: u64 = 2_000_000;
/// The colour that wins each size's start position with perfect play, as the solver finds
/// it (its tests check 3 to 5, the `minichess_solve` bench 6).
const START_WINNER: [(usize, Color); 4] = [
    (3, Color::Black),
    (4, Color::White),
    (5, Color::White),
    (6, Color::Black),
];

/// The colour that wins the start of `size` in theory, where known.
pub fn start_winner(size: usize) -> Option<Color> {
    START_WINNER
        .iter()
        .find(|(s, _)| *s == size)
        .map(|(_, color)| *color)
}

/// miniChess's match play: the functions above behind [`MatchPlay`].
pub struct MiniChessMatches;

impl MatchPlay for MiniChessMatches {
    fn check(&self, dialect: &Dialect, def: &MatchDef) -> Result<(), OptionError> {
        check(dialect, def)
    }

    fn play(
        &self,
        dialect: &Dialect,
        def: &MatchDef,
        conversation: &mut dyn Conversation,
    ) -> Result<Vec<GameResult>, String> {
        play(dialect, def, conversation)
    }
}

/// The game-specific checks of a match table: opponents and sizes.
fn check(dialect: &Dialect, def: &MatchDef) -> Result<(), OptionError> {
    if dialect::functions(dialect.name).is_none() {
        return Err(OptionError::new(
            "dialect",
            format!("unknown dialect {:?}", dialect.name),
        ));
    }
    for (i, name) in def.opponents.iter().enumerate() {
        if !OPPONENTS.contains(&name.as_str()) {
            return Err(OptionError::new(
                format!("opponents[{i}]"),
                format!(
                    "unknown player {name:?}; expected one of {}",
                    OPPONENTS.join(", ")
                ),
            ));
        }
    }
    for (i, &size) in def.sizes.iter().enumerate() {
        if Board::start(size).is_err() {
            return Err(OptionError::new(
                format!("sizes[{i}]"),
                format!("board size {size} is not supported (3 to 8)"),
            ));
        }
        if def.uses_theory() && start_winner(size).is_none() {
            return Err(OptionError::new(
                format!("sizes[{i}]"),
                format!(
                    "which side wins {size}x{size} in theory is not known, so awards by \
                     winning or losing side cannot count its games"
                ),
            ));
        }
    }
    Ok(())
}

/// Plays every game of the match, in a fixed order: opponent, size, colour, game.
fn play(
    dialect: &Dialect,
    def: &MatchDef,
    conversation: &mut dyn Conversation,
) -> Result<Vec<GameResult>, String> {
    let functions = dialect::functions(dialect.name)
        .ok_or_else(|| format!("unknown dialect {:?}", dialect.name))?;
    let mut perfect = PerfectPlayer::with_budget(PERFECT_BUDGET);
    let mut results = Vec::new();
    for (o, opponent) in def.opponents.iter().enumerate() {
        for &size in &def.sizes {
            let start = Board::start(size).map_err(|e| e.to_string())?;
            for color in [Color::White, Color::Black] {
                for index in 0..def.games {
                    let seed = game_seed(def.seed, o, size, color, index);
                    let mut fresh = fresh_player(opponent, seed)?;
                    let other: &mut dyn Player = match fresh.as_deref_mut() {
                        Some(player) => player,
                        None => &mut perfect,
                    };
                    let mut submission = Submission::new(functions, &mut *conversation);
                    let record = match color {
                        Color::White => play_game(start, &mut submission, other),
                        Color::Black => play_game(start, other, &mut submission),
                    };
                    let failure = submission.failure.take();
                    results.push(result(opponent, seed, color, &record, failure));
                }
            }
        }
    }
    Ok(results)
}

/// A new player for one game, or `None` for `perfect`, which is kept for the whole match
/// so its solver's table serves every game.
fn fresh_player(name: &str, seed: u64) -> Result<Option<Box<dyn Player>>, String> {
    Ok(match name {
        "random" => Some(Box::new(RandomPlayer::new(seed))),
        "greedy" => Some(Box::new(GreedyPlayer)),
        "alpha-beta" => Some(Box::new(AlphaBetaPlayer::new(ALPHA_BETA_DEPTH))),
        "perfect" => None,
        other => return Err(format!("unknown player {other:?}")),
    })
}

/// Each game's own seed, from the match's and the game's place in it.
fn game_seed(seed: u64, opponent: usize, size: usize, color: Color, index: u32) -> u64 {
    let mut rng = Rng::new(seed);
    let place = [
        opponent as u64,
        size as u64,
        color.code() as u64,
        index as u64,
    ];
    place
        .iter()
        .fold(rng.next_u64(), |acc, &p| Rng::new(acc ^ p).next_u64())
}

/// One game from the submission's side.
fn result(
    opponent: &str,
    seed: u64,
    color: Color,
    record: &GameRecord,
    failure: Option<Failure>,
) -> GameResult {
    let loser = record.winner.opponent();
    let ending = match &record.reason {
        EndReason::Rule(WinReason::ReachedFarRow) => {
            format!(
                "{} won: {} reached the far row",
                record.winner, record.winner
            )
        }
        EndReason::Rule(WinReason::NoPawnsLeft) => {
            format!("{} won: {loser} has no pawns left", record.winner)
        }
        EndReason::Rule(WinReason::NoMoveLeft) => {
            format!("{} won: {loser} had no move", record.winner)
        }
        EndReason::Forfeit { .. } => match (&failure, loser == color) {
            (Some(failure), true) => format!("{loser} lost its turn: {}", failure.text),
            _ => format!("{loser} lost its turn"),
        },
    };
    let moves = record
        .moves
        .iter()
        .map(|mv| format!("{} {mv}", mv.color()))
        .collect();
    GameResult {
        opponent: opponent.to_string(),
        size: record.start.size(),
        color: color.to_string(),
        winning_side: start_winner(record.start.size()).map(|w| w == color),
        seed,
        won: record.winner == color,
        forfeit: matches!(record.reason, EndReason::Forfeit { .. }) && record.winner != color,
        ending,
        moves,
        final_board: render_grid(&record.final_board, None),
        stop: failure.and_then(|f| f.stop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::matches::{AwardDef, MatchSide, ReferenceConversation, Stop};
    use crate::games::minichess::dialect::DIALECTS;
    use crate::games::minichess::session::CallSession;
    use crate::games::minichess::Solver;
    use crate::games::minichess::Value;

    fn def(opponents: &[&str], sizes: &[usize], games: u32) -> MatchDef {
        MatchDef {
            opponents: opponents.iter().map(|s| s.to_string()).collect(),
            sizes: sizes.to_vec(),
            games,
            seed: 3,
            call_time_limit: None,
            award: vec![AwardDef {
                points: 1.0,
                opponent: None,
                side: MatchSide::Winning,
                min_win_rate: Some(1.0),
                max_losses: None,
            }],
        }
    }

    fn reference() -> ReferenceConversation {
        ReferenceConversation::new(Box::new(CallSession::new(
            dialect::functions("ecs10").unwrap(),
        )))
    }

    #[test]
    fn the_table_of_winners_agrees_with_the_solver() {
        for size in 3..=5 {
            let value = Solver::new()
                .solve(&Board::start(size).unwrap(), Color::White)
                .unwrap()
                .value;
            let white_wins = value == Value::Win;
            assert_eq!(
                start_winner(size) == Some(Color::White),
                white_wins,
                "{size}"
            );
        }
    }

    #[test]
    fn the_reference_never_loses_a_won_start() {
        let games = play(
            &DIALECTS[0],
            &def(&["random", "greedy", "perfect"], &[3, 4], 2),
            &mut reference(),
        )
        .unwrap();
        assert_eq!(games.len(), 3 * 2 * 2 * 2);
        for g in &games {
            if g.winning_side == Some(true) {
                assert!(g.won, "{g:?}");
            }
            assert!(g.stop.is_none());
        }
    }

    #[test]
    fn a_silent_submission_loses_every_game_by_forfeit() {
        struct Silent;
        impl Conversation for Silent {
            fn send(&mut self, _: &str) -> Result<(), Stop> {
                Ok(())
            }
            fn read_line(&mut self) -> Result<String, Stop> {
                Ok("None".into())
            }
        }
        let games = play(&DIALECTS[0], &def(&["random"], &[3], 1), &mut Silent).unwrap();
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(!g.won);
            assert!(
                g.ending.contains("move_maker answered `None`"),
                "{}",
                g.ending
            );
        }
    }

    #[test]
    fn checks_opponents_and_sizes() {
        let ok = def(&["random"], &[3, 4], 1);
        assert!(check(&DIALECTS[0], &ok).is_ok());
        let e = check(&DIALECTS[0], &def(&["randm"], &[3], 1)).unwrap_err();
        assert_eq!(e.key, "opponents[0]");
        let e = check(&DIALECTS[0], &def(&["random"], &[3, 9], 1)).unwrap_err();
        assert_eq!(e.key, "sizes[1]");
        let e = check(&DIALECTS[0], &def(&["random"], &[7], 1)).unwrap_err();
        assert!(e.message.contains("in theory"), "{}", e.message);
    }

    #[test]
    fn seeds_differ_by_game() {
        let a = game_seed(1, 0, 3, Color::White, 0);
        assert_ne!(a, game_seed(1, 0, 3, Color::White, 1));
        assert_ne!(a, game_seed(1, 0, 3, Color::Black, 0));
        assert_ne!(a, game_seed(2, 0, 3, Color::White, 0));
        assert_eq!(a, game_seed(1, 0, 3, Color::White, 0));
    }
}
