//! The pown-chess battery: the student's whole program is the game, so each family is one
//! seeded game typed into it (the program ends with its game, and one run holds one game).
//! The reference plays along to choose each line, and every family keeps to its own rules:
//! the moves and input families never capture, the captures family stops short of the end,
//! and only the input family types anything but a movable pown's square as the handout
//! writes it. So a wrong end message fails the game-end family only, and a turn that
//! does not pass after `INVALID MOVE` the input family only. Which powns can move at all is
//! the moves family's: it steps until every column's powns face each other, where the player
//! to move can only take, and the captures family always leaves the player to move a step,
//! so taking there is a choice (a program that thinks a pown facing another is stuck fails
//! the moves family only).

use super::board::Board;
use super::options::{BoardSize, PownOptions};
use super::program::PownProgram;
use super::square::{Color, Square};
use crate::games::battery::{Battery, Family, Plan};
use crate::rng::Rng;

/// The topic of the scenarios about captures: this battery's family, and the tag of the
/// written scenarios about them (`specs/pown-chess/pown/`). They alone judge the capture line.
pub const CAPTURES: &str = "captures";

static FAMILIES: [Family; 4] = [
    Family {
        name: "moves",
        about: "powns of both colours stepping one square straight ahead onto empty squares, each in its own direction, the board after each move",
        judge: &[],
    },
    Family {
        name: CAPTURES,
        about: "powns meeting in their column: the mover takes the pown ahead (`b powns a w`), by either colour, in many columns",
        judge: &[],
    },
    Family {
        name: "input",
        about: "what players type: squares in lower case or with spaces around them, and INVALID MOVE for squares that do not exist, empty squares and the other player's powns, the turn passing after it",
        judge: &[],
    },
    Family {
        name: "game end",
        about: "whole games to their end: the player who cannot move, both piece counts, the winner or a tie, GAME OVER",
        judge: &[],
    },
];

/// Fewest lines a game-end game may type: enough to finish a game whatever `plies` says.
const WHOLE_GAME: usize = 200;

/// The battery of the `pown` dialect.
pub struct PownBattery;

impl Battery for PownBattery {
    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    /// One game of at most `plan.plies` lines; the game-end family plays to the end, and of
    /// its seeded games keeps the first whose end tells most: the stuck player with more
    /// powns than the other (so it wins, and the counts differ).
    fn lines(&self, family: &Family, plan: Plan) -> Vec<String> {
        let mut rng = plan.rng(family);
        if family.name != "game end" {
            return play(family.name, None, plan.plies, &mut rng).0;
        }
        let mut last = Vec::new();
        for _ in 0..ENDINGS_TRIED {
            let runner = if rng.chance(1, 2) {
                Color::White
            } else {
                Color::Black
            };
            let mut columns: Vec<usize> = (0..BoardSize::MAX).collect();
            let lost = (0..2 + rng.below(2))
                .map(|_| columns.swap_remove(rng.below(columns.len())))
                .collect();
            let steer = Steer { runner, lost };
            let most = plan.plies.max(WHOLE_GAME);
            let (lines, program) = play(family.name, Some(&steer), most, &mut rng);
            let board = program.board();
            let stuck = board.to_move();
            if board.count_pieces(stuck) > board.count_pieces(stuck.opponent()) {
                return lines;
            }
            last = lines;
        }
        last
    }
}

/// Most games the game-end family plays looking for a telling end.
const ENDINGS_TRIED: usize = 100;

/// The lines of one game of `family`, at most `most` of them, and the program after them.
/// A whole game follows `steer`.
fn play(
    family: &str,
    steer: Option<&Steer>,
    most: usize,
    rng: &mut Rng,
) -> (Vec<String>, PownProgram) {
    let mut program = PownProgram::new(PownOptions::default());
    let mut lines = Vec::new();
    while lines.len() < most && !program.is_finished() {
        let line = match steer {
            Some(steer) => whole_game_line(&program, steer, rng),
            None => next_line(family, &program, rng),
        };
        let Some(line) = line else {
            break;
        };
        program.input(&line);
        lines.push(line);
    }
    (lines, program)
}

/// The family's next line, or `None` when its game has gone as far as the family goes.
fn next_line(family: &str, program: &PownProgram, rng: &mut Rng) -> Option<String> {
    let board = program.board();
    let me = board.to_move();
    let captures: Vec<Square> = board.takers(me).collect();
    let steps: Vec<Square> = board
        .movable_pieces(me)
        .filter(|from| !captures.contains(from))
        .collect();
    // A move that leaves the game going: the families before the end stop short of it. The
    // captures family also leaves the next player a step (see the header).
    let goes_on = |from: &&Square| {
        let mut next = program.clone();
        next.input(&from.to_string());
        !next.is_finished() && (family != "captures" || can_step(next.board()))
    };
    let pick = |squares: &[Square], rng: &mut Rng| -> Option<Square> {
        let going: Vec<&Square> = squares.iter().filter(goes_on).collect();
        rng.pick(&going).map(|s| **s)
    };
    match family {
        "moves" => pick(&steps, rng).map(|s| s.to_string()),
        "captures" => {
            let take = rng.chance(3, 4);
            let first = if take { &captures } else { &steps };
            let second = if take { &steps } else { &captures };
            pick(first, rng)
                .or_else(|| pick(second, rng))
                .map(|s| s.to_string())
        }
        // Steps only, as in the moves family: a capture's line is the captures family's.
        "input" => {
            let step = pick(&steps, rng)?;
            Some(match rng.chance(1, 2) {
                true => invalid(program, rng),
                false => typed(step, rng),
            })
        }
        _ => {
            let all: Vec<Square> = captures.iter().chain(&steps).copied().collect();
            rng.pick(&all).map(|s| s.to_string())
        }
    }
}

/// How a whole game is steered: the runner wins every column but `lost`, capturing the
/// other player's powns deep in its own half, and runs its powns to its last row; the other
/// player brings its powns deep and takes the runner's only in the `lost` columns.
#[derive(Debug, Clone)]
struct Steer {
    runner: Color,
    lost: Vec<usize>,
}

/// The next move of a whole game under `steer` (a random one now and then).
fn whole_game_line(program: &PownProgram, steer: &Steer, rng: &mut Rng) -> Option<String> {
    let board = program.board();
    let me = board.to_move();
    let home = me.home_row(board.size());
    let takers: Vec<Square> = board.takers(me).collect();
    let movable: Vec<(Square, bool)> = board
        .movable_pieces(me)
        .map(|from| (from, takers.contains(&from)))
        .collect();
    // Lower is preferred.
    let rank = |&(from, capture): &(Square, bool)| {
        let lost = steer.lost.contains(&from.col());
        match (me == steer.runner, lost, capture) {
            // The runner: take in its columns, run home the powns that took, walk into
            // capture in the lost columns, keep the rest at home.
            (true, false, true) => 0,
            (true, false, false) if from.row() != home => 1,
            (true, true, false) => 2,
            (true, false, false) => 3,
            (true, true, true) => 4,
            // The other player: take in the lost columns, come deep in the others.
            (false, true, true) => 0,
            (false, false, false) => 1,
            (false, true, false) => 2,
            (false, false, true) => 3,
        }
    };
    let best = movable.iter().map(rank).min()?;
    let preferred: Vec<&(Square, bool)> = movable.iter().filter(|m| rank(m) == best).collect();
    let chosen = if rng.chance(1, 20) {
        rng.pick(&movable)
    } else {
        rng.pick(&preferred).copied()
    };
    chosen.map(|(square, _)| square.to_string())
}

/// Whether the player to move has a pown that can step onto an empty square.
fn can_step(board: &Board) -> bool {
    let me = board.to_move();
    board.moves_remaining(me) > board.takers(me).count()
}

/// A movable pown's square as a player may type it: as written, in lower case, or with
/// spaces around it.
fn typed(square: Square, rng: &mut Rng) -> String {
    let text = square.to_string();
    match rng.below(3) {
        0 => text,
        1 => text.to_lowercase(),
        _ => format!("  {text} "),
    }
}

/// A line the program answers with `INVALID MOVE`: a square that does not exist, an empty
/// square, or the other player's pown. (A pown on its last row got there by a capture: the
/// bundled `rules.toml` types one.)
fn invalid(program: &PownProgram, rng: &mut Rng) -> String {
    const NO_SQUARE: [&str; 6] = ["I1", "A9", "A0", "hello", "", "B"];
    let board = program.board();
    let owned_by = |owner: Option<Color>| -> Vec<Square> {
        board
            .squares()
            .filter(|&s| board.piece_at(s) == owner)
            .collect()
    };
    let squares = match rng.below(3) {
        0 => Vec::new(),
        1 => owned_by(None),
        _ => owned_by(Some(board.to_move().opponent())),
    };
    match rng.pick(&squares) {
        Some(square) => square.to_string(),
        None => NO_SQUARE[rng.below(NO_SQUARE.len())].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::InvalidMove;
    use super::*;

    fn plan(seed: u64) -> Plan {
        Plan {
            seed,
            games: 1,
            plies: 60,
        }
    }

    /// What each line of a family's game did on the reference.
    fn events(family: &Family, seed: u64) -> Vec<&'static str> {
        let mut program = PownProgram::new(PownOptions::default());
        let mut seen = Vec::new();
        for line in PownBattery.lines(family, plan(seed)) {
            assert!(
                !program.is_finished(),
                "{}: {line:?} after the end",
                family.name
            );
            let board = program.board().clone();
            let me = board.to_move();
            let trimmed = line.trim();
            let event = match board.parse_square(trimmed) {
                Err(InvalidMove::NoSuchSquare) => "no such square",
                Ok(square) if board.piece_at(square).is_none() => "empty square",
                Ok(square) if board.piece_at(square) != Some(me) => "other player's pown",
                Ok(square) if square.row() == me.last_row(board.size()) => "last row",
                Ok(square) if board.takers(me).any(|s| s == square) => "capture",
                Ok(_) if trimmed != line || line.to_uppercase() != line => "typed loosely",
                _ => "step",
            };
            seen.push(event);
            let answer = program.input(&line);
            if program.is_finished() {
                assert!(answer.contains("GAME OVER"), "{answer}");
                seen.push("end");
            }
        }
        seen
    }

    #[test]
    fn each_family_keeps_to_its_rules_and_reaches_them() {
        for family in &FAMILIES {
            for seed in [Plan::DEFAULT_SEED, 1, 2] {
                let seen = events(family, seed);
                let allowed: &[&str] = match family.name {
                    "moves" => &["step"],
                    "captures" => &["step", "capture"],
                    "input" => &[
                        "step",
                        "typed loosely",
                        "no such square",
                        "empty square",
                        "other player's pown",
                    ],
                    _ => &["step", "capture", "end"],
                };
                for event in &seen {
                    assert!(allowed.contains(event), "{}: {event}", family.name);
                }
                let wanted: &[&str] = match family.name {
                    "moves" => &["step"],
                    "captures" => &["capture"],
                    "input" => &[
                        "typed loosely",
                        "no such square",
                        "empty square",
                        "other player's pown",
                    ],
                    _ => &["capture", "end"],
                };
                for event in wanted {
                    assert!(
                        seen.contains(event),
                        "{} {seed}: {event} never",
                        family.name
                    );
                }
                if family.name == "moves" {
                    assert!(seen.len() >= 20, "{seed}: {} steps", seen.len());
                }
                if family.name == "captures" {
                    let n = seen.iter().filter(|e| **e == "capture").count();
                    assert!(n >= 4, "{seed}: {n} captures");
                }
            }
        }
    }

    /// Whether the player to move can step, after each line of `family`'s game.
    fn steps_left(family: &Family, seed: u64) -> Vec<bool> {
        let mut program = PownProgram::new(PownOptions::default());
        let lines = PownBattery.lines(family, plan(seed));
        lines
            .iter()
            .map(|line| {
                program.input(line);
                can_step(program.board())
            })
            .collect()
    }

    #[test]
    fn only_the_moves_family_leaves_a_player_who_can_only_take() {
        for seed in [Plan::DEFAULT_SEED, 1, 2, 3, 4] {
            let moves = steps_left(&FAMILIES[0], seed);
            assert_eq!(moves.last(), Some(&false), "moves {seed}");
            assert!(moves[..moves.len() - 1].iter().all(|&s| s), "moves {seed}");
            let captures = steps_left(&FAMILIES[1], seed);
            assert!(captures.iter().all(|&s| s), "captures {seed}");
        }
    }

    #[test]
    fn the_game_end_family_ends_with_the_stuck_player_ahead() {
        for seed in [Plan::DEFAULT_SEED, 1, 2] {
            let mut program = PownProgram::new(PownOptions::default());
            for line in PownBattery.lines(&FAMILIES[3], plan(seed)) {
                program.input(&line);
            }
            assert!(program.is_finished(), "{seed}");
            let board = program.board();
            let stuck = board.to_move();
            assert!(
                board.count_pieces(stuck) > board.count_pieces(stuck.opponent()),
                "{seed}"
            );
        }
    }

    #[test]
    fn the_same_seed_repeats_the_game_and_another_changes_it() {
        for family in &FAMILIES {
            let lines = PownBattery.lines(family, plan(1));
            assert_eq!(lines, PownBattery.lines(family, plan(1)));
            assert_ne!(lines, PownBattery.lines(family, plan(3)));
        }
    }
}
