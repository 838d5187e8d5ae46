//! The csc110 battery: seed 001's whole program is the game (the course's starter `main()`),
//! so each family is one seeded game typed into it, an index and a direction a move. The
//! reference plays along to choose each move, and every family keeps to its own rules: the
//! knight and king families move only their own kind and never take a king, the input
//! family types refused indexes (none negative) between plain knight jumps onto empty
//! cells, and only the game-over family ends the game. So a king that stops short fails the
//! king family, a missed win the game-over family, and a turn that passes after a refused
//! move the input family. (The same rules called one function at a time are
//! `csc110-functions`'s battery.)

use super::engine::{Board, Direction, Kind, Move, Side, CELLS};
use super::inputs::refused_positions;
use crate::games::battery::{Battery, Family, Plan};
use crate::rng::Rng;

static FAMILIES: [Family; 4] = [
    Family {
        name: "knight",
        about: "knights of both sides typed to jump two cells over anything, taking what they land on (own pieces too) and staying put when the target is off the board, the board after each move",
        judge: &[],
    },
    Family {
        name: "king",
        about: "kings of both sides typed to slide to the first piece (taken, own pieces too) or to the last cell at the edge, and to stay put at their own edge, the board after each move",
        judge: &[],
    },
    Family {
        name: "input",
        about: "indexes the player may not move from (empty cells, the other side's pieces, 9, off the board): the board again and the same player asked again",
        judge: &[],
    },
    Family {
        name: "game over",
        about: "whole games to their end, a king taken by a knight or a king (its own side's too): the last board, the winner's message, and the program ending",
        judge: &[],
    },
];

/// Fewest moves a game-over game may make: enough to end most games whatever `plies` says.
const WHOLE_GAME: usize = 120;
/// Fewest moves a game-over game makes before it may take a king.
const MIN_OPENING: usize = 8;
/// Most games the game-over family plays looking for one that ends.
const ENDINGS_TRIED: usize = 100;

/// The battery of the `csc110` dialect.
pub struct Csc110Battery;

impl Battery for Csc110Battery {
    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    /// One game of at most `plan.plies` moves (the program plays one game per run). The
    /// game-over family keeps the first of its seeded games that Black wins by taking the
    /// white king (the end the handout's example game, a White win, does not show), or
    /// else the first that ends.
    fn lines(&self, family: &Family, plan: Plan) -> Vec<String> {
        let mut rng = plan.rng(family);
        if family.name != "game over" {
            return partial_game(family.name, plan.plies, &mut rng);
        }
        let mut kept: Option<Vec<String>> = None;
        let mut last = Vec::new();
        for _ in 0..ENDINGS_TRIED {
            let (lines, end) = whole_game(plan.plies.max(WHOLE_GAME), &mut rng);
            match end {
                Some(end) if end.winner == Side::Black && end.by == Side::Black => return lines,
                Some(_) if kept.is_none() => kept = Some(lines),
                _ => last = lines,
            }
        }
        kept.unwrap_or(last)
    }
}

/// How a game ended: who won, and whose piece took the king.
#[derive(Debug, Clone, Copy)]
struct End {
    winner: Side,
    by: Side,
}

/// A move `side` may make from `board`, what it does, and the board after it.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    direction: Direction,
    made: Move,
    after: Board,
}

impl Candidate {
    /// What the player types: the index, then the direction.
    fn lines(&self) -> [String; 2] {
        let direction = match self.direction {
            Direction::Left => "l",
            Direction::Right => "r",
        };
        [self.made.from.to_string(), direction.to_string()]
    }

    fn takes_a_king(&self) -> bool {
        self.made.captured.is_some_and(|p| p.kind == Kind::King)
    }

    /// A knight jumping onto an empty cell: the move every other rule leaves alone.
    fn is_plain(&self) -> bool {
        self.made.piece.kind == Kind::Knight
            && self.made.to != self.made.from
            && self.made.captured.is_none()
    }
}

/// Every move `side` may make on `board`.
fn candidates(board: &Board, side: Side) -> Vec<Candidate> {
    (0..CELLS)
        .filter(|&from| board.is_valid_move(from as i64, side))
        .flat_map(|from| [Direction::Left, Direction::Right].map(|d| (from, d)))
        .filter_map(|(from, direction)| {
            let mut after = *board;
            let made = after.play(from as i64, direction).ok()?;
            Some(Candidate {
                direction,
                made,
                after,
            })
        })
        .collect()
}

/// The game of the knight, king or input family: at most `plies` moves, ending when the
/// family has no move left, never with a king taken.
fn partial_game(family: &str, plies: usize, rng: &mut Rng) -> Vec<String> {
    let (lines, _) = play_game(plies, rng, |board, side, _, all, rng, lines| {
        let going_on = all.iter().filter(|c| !c.takes_a_king());
        let allowed: Vec<&Candidate> = match family {
            "knight" => going_on
                .filter(|c| c.made.piece.kind == Kind::Knight)
                .collect(),
            "king" => going_on
                .filter(|c| c.made.piece.kind == Kind::King)
                .collect(),
            _ => {
                // One to three refused indexes, each with a direction, before the move. No
                // negative one: seed 001 asks only for "a valid index into the board list",
                // which Python reads either way; the functions battery judges that reading.
                let refused: Vec<i64> = refused_positions(board, side)
                    .into_iter()
                    .filter(|&p| p >= 0)
                    .collect();
                for _ in 0..1 + rng.below(3) {
                    let index = refused[rng.below(refused.len())];
                    let direction = if rng.chance(1, 2) { "l" } else { "r" };
                    lines.extend([index.to_string(), direction.to_string()]);
                }
                going_on.filter(|c| c.is_plain()).collect()
            }
        };
        choose(&allowed, rng)
    });
    lines
}

/// A game from the start of at most `most` moves, each chosen by `next` from every move the
/// side to move may make (it is given the board, the side, the moves made so far, and the
/// lines typed, to which it may add its own before the move); the lines typed, and how the
/// game ended, if a king fell. It ends early when `next` chooses none.
fn play_game(
    most: usize,
    rng: &mut Rng,
    mut next: impl FnMut(
        &Board,
        Side,
        usize,
        &[Candidate],
        &mut Rng,
        &mut Vec<String>,
    ) -> Option<Candidate>,
) -> (Vec<String>, Option<End>) {
    let mut board = Board::start();
    let mut side = Side::White;
    let mut lines = Vec::new();
    for played in 0..most {
        let all = candidates(&board, side);
        let Some(choice) = next(&board, side, played, &all, rng, &mut lines) else {
            break;
        };
        lines.extend(choice.lines());
        board = choice.after;
        if let Some(winner) = board.winner() {
            let end = End {
                winner,
                by: choice.made.piece.side,
            };
            return (lines, Some(end));
        }
        side = side.opponent();
    }
    (lines, None)
}

/// One of `allowed`: a piece staying put at an edge when one can (half the time), a capture
/// now and then (so the pieces last and the game goes on), otherwise a move onto an empty
/// cell.
fn choose(allowed: &[&Candidate], rng: &mut Rng) -> Option<Candidate> {
    let stays: Vec<&Candidate> = allowed
        .iter()
        .copied()
        .filter(|c| c.made.to == c.made.from)
        .collect();
    let (takes, quiet): (Vec<&Candidate>, Vec<&Candidate>) = allowed
        .iter()
        .copied()
        .filter(|c| c.made.to != c.made.from)
        .partition(|c| c.made.captured.is_some());
    let order = match (rng.chance(1, 2), rng.chance(1, 4)) {
        (true, _) => [&stays, &quiet, &takes],
        (false, true) => [&takes, &quiet, &stays],
        (false, false) => [&quiet, &takes, &stays],
    };
    let chosen = order.into_iter().find_map(|pool| rng.pick(pool).copied());
    chosen.copied()
}

/// A game of at most `most` moves that, after a few moves that go on (so the boards
/// before the end are many), takes a king whenever it can, and otherwise makes plain knight
/// jumps while there are any; how it ended, if it did.
fn whole_game(most: usize, rng: &mut Rng) -> (Vec<String>, Option<End>) {
    let opening = MIN_OPENING + rng.below(MIN_OPENING);
    play_game(most, rng, |_, _, played, all, rng, _| {
        let ending: Vec<&Candidate> = all
            .iter()
            .filter(|c| c.takes_a_king() && played >= opening)
            .collect();
        let going_on = all.iter().filter(|c| !c.takes_a_king());
        let plain: Vec<&Candidate> = going_on.clone().filter(|c| c.is_plain()).collect();
        let any: Vec<&Candidate> = going_on.collect();
        // The moves before the end keep clear of the edges, where the knight and king
        // families' bugs hide, as long as the game allows.
        let chosen = [&ending, &plain, &any]
            .into_iter()
            .find_map(|pool| rng.pick(pool).copied());
        chosen.copied()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::one_d_chess::csc110::Csc110;
    use crate::games::Session;

    fn plan(seed: u64) -> Plan {
        Plan {
            seed,
            games: Plan::DEFAULT_GAMES,
            plies: Plan::DEFAULT_PLIES,
        }
    }

    /// What the reference program prints for `lines`, one reply a line.
    fn replay(lines: &[String]) -> Vec<String> {
        let mut program = Csc110::new();
        lines.iter().map(|l| program.respond(l).text).collect()
    }

    #[test]
    fn only_the_game_over_family_ends_its_game_and_it_always_does() {
        for seed in [1, 2026, 99_991] {
            for family in &FAMILIES {
                let lines = Csc110Battery.lines(family, plan(seed));
                assert!(lines.len() >= 20, "{} {seed}: {lines:?}", family.name);
                let replies = replay(&lines);
                let ends = replies.iter().filter(|r| r.contains("wins!")).count();
                if family.name == "game over" {
                    assert_eq!(ends, 1, "{seed}: {replies:?}");
                    let last = replies.last().unwrap();
                    assert!(last.ends_with("Black wins!\n"), "{seed}: {last}");
                } else {
                    assert_eq!(ends, 0, "{} {seed}: {replies:?}", family.name);
                }
            }
        }
    }

    fn direction(word: &str) -> Direction {
        if word == "l" {
            Direction::Left
        } else {
            Direction::Right
        }
    }

    #[test]
    fn knights_and_kings_move_only_in_their_own_family_stay_put_and_kings_take_their_own() {
        for (name, kind) in [("knight", Kind::Knight), ("king", Kind::King)] {
            let family = FAMILIES.iter().find(|f| f.name == name).unwrap();
            let (mut stayed, mut took_own) = (0, 0);
            for seed in 1..=5 {
                let lines = Csc110Battery.lines(family, plan(seed));
                let mut board = Board::start();
                let mut side = Side::White;
                for pair in lines.chunks(2) {
                    let from: usize = pair[0].parse().unwrap();
                    let piece = board.cells()[from].map(|p| (p.side, p.kind));
                    assert_eq!(piece, Some((side, kind)), "{name} {seed}");
                    let made = board.play(from as i64, direction(&pair[1])).unwrap();
                    stayed += usize::from(made.to == made.from);
                    took_own += usize::from(made.captured.is_some_and(|p| p.side == side));
                    side = side.opponent();
                }
                assert!(board.winner().is_none(), "{name} {seed}");
            }
            // Staying put at an edge is part of both families' rules. A king takes its own
            // pieces too; a knight never can in a game (see `bug-knight-spares-own`).
            assert!(stayed > 0, "{name}: no piece ever stayed put");
            assert_eq!(took_own > 0, kind == Kind::King, "{name}: {took_own}");
        }
    }

    #[test]
    fn the_input_family_types_every_kind_of_refused_index_and_the_same_player_is_asked_again() {
        let family = FAMILIES.iter().find(|f| f.name == "input").unwrap();
        let lines = Csc110Battery.lines(family, plan(2026));
        let mut program = Csc110::new();
        let mut board = Board::start();
        let mut side = Side::White;
        let (mut empty, mut theirs, mut off) = (0, 0, 0);
        for pair in lines.chunks(2) {
            let index: i64 = pair[0].parse().unwrap();
            let before = program.respond(&pair[0]).text;
            assert!(before.contains("enter direction"), "{before}");
            let after = program.respond(&pair[1]).text;
            if board.is_valid_move(index, side) {
                board.play(index, direction(&pair[1])).unwrap();
                side = side.opponent();
            } else {
                match usize::try_from(index).ok().filter(|&i| i < CELLS) {
                    None => off += 1,
                    Some(i) if board.cells()[i].is_none() => empty += 1,
                    Some(_) => theirs += 1,
                }
            }
            let asked = if side == Side::White {
                "White enter index:"
            } else {
                "Black enter index:"
            };
            assert!(after.ends_with(&format!("{asked}\n")), "{after}");
        }
        assert!(empty > 0 && theirs > 0 && off > 0, "{empty} {theirs} {off}");
    }

    #[test]
    fn the_same_seed_repeats_the_lines_and_another_changes_them() {
        for family in &FAMILIES {
            let once = Csc110Battery.lines(family, plan(5));
            assert_eq!(
                once,
                Csc110Battery.lines(family, plan(5)),
                "{}",
                family.name
            );
            assert_ne!(
                once,
                Csc110Battery.lines(family, plan(6)),
                "{}",
                family.name
            );
        }
    }
}
