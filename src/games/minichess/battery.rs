//! The miniChess battery (both call dialects): seeded positions on every board size, not
//! only games from the start, asking `move_maker` for either colour's moves and
//! `move_chooser` to pick among them. A `move_maker` answer is one list holding every rule's
//! boards, so the families judge their own slice of it (the protocol's `steps` and
//! `captures` parts, sorted out against the board given): a program that captures straight
//! ahead fails the steps family, one whose diagonals wrap around the edge the captures
//! family, and one that changes the board it was given only the input family.

use super::board::{Board, Color, MAX_SIZE, MIN_SIZE};
use super::functions::Functions;
use super::notation::rows_of;
use crate::games::battery::{Battery, Family, Plan};
use crate::rng::Rng;

static FAMILIES: [Family; 4] = [
    Family {
        name: "steps",
        about: "straight steps of either colour in its own direction onto empty squares, none onto a pawn of either colour (no straight capture), on every board size",
        judge: &["steps"],
    },
    Family {
        name: "captures",
        about: "diagonal captures of the other colour's pawns, none onto empty squares or own pawns, none wrapping around the board's edge",
        judge: &["captures"],
    },
    Family {
        name: "input board",
        about: "move_maker leaves the board it was given unchanged",
        judge: &["input"],
    },
    Family {
        name: "chooser",
        about: "move_chooser returns one of the boards it was given",
        judge: &["boards"],
    },
];

/// Most tries to draw a position where the side to move has a move and the game goes on.
const TRIES: usize = 50;

/// The battery of one dialect: its functions' names and argument order.
pub struct MiniBattery {
    pub functions: Functions,
}

impl Battery for MiniBattery {
    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    fn lines(&self, family: &Family, plan: Plan) -> Vec<String> {
        let functions = &self.functions;
        let mut rng = plan.rng(family);
        let mut lines = Vec::new();
        for _ in 0..plan.games * plan.plies {
            // Every size, the small ones where games are played most; the reference thinks
            // before it chooses, so small boards only for the chooser.
            let size = match (family.name, rng.chance(1, 2)) {
                ("chooser", _) | (_, true) => MIN_SIZE + rng.below(3),
                _ => MIN_SIZE + rng.below(MAX_SIZE - MIN_SIZE + 1),
            };
            if let Some((board, color)) = position(size, family.name == "captures", &mut rng) {
                lines.push(line(functions, family, &board, color, &mut rng));
            }
        }
        lines
    }
}

/// The family's command about `board` with `color` to move.
fn line(
    functions: &Functions,
    family: &Family,
    board: &Board,
    color: Color,
    rng: &mut Rng,
) -> String {
    if family.name != "chooser" {
        return functions.maker_line(board, color);
    }
    let mut boards: Vec<_> = board.successors(color).iter().map(rows_of).collect();
    // The list in another order now and then, as a submission's own move_maker gives it.
    if rng.chance(1, 2) {
        boards.reverse();
    }
    functions.chooser_line(&boards, color)
}

/// A position of `size` where `color` is to move, has a move, and the game goes on: each
/// colour's pawns anywhere but the row it wins on. With `contact`, pawns of the side to
/// move get the other side's pawns diagonally ahead and beside the edge, where captures and
/// wrong captures decide.
fn position(size: usize, contact: bool, rng: &mut Rng) -> Option<(Board, Color)> {
    for _ in 0..TRIES {
        let color = if rng.chance(1, 2) {
            Color::White
        } else {
            Color::Black
        };
        let mut rows = vec![vec![0u8; size]; size];
        for pawn in [Color::White, Color::Black] {
            let count = 1 + rng.below(size);
            for _ in 0..count {
                let (row, col) = (rng.below(size), rng.below(size));
                rows[row][col] = pawn.code();
            }
        }
        if contact {
            add_contacts(&mut rows, color, rng);
        }
        let Ok(board) = Board::from_rows(&rows) else {
            continue;
        };
        if board.outcome(color).is_none() {
            return Some((board, color));
        }
    }
    None
}

/// Puts the other colour's pawns diagonally ahead of some pawns of `color`, across the
/// board's edge from a pawn on an edge column, and own pawns diagonally ahead of others.
fn add_contacts(rows: &mut [Vec<u8>], color: Color, rng: &mut Rng) {
    let size = rows.len();
    let pawns: Vec<(usize, usize)> = (0..size)
        .flat_map(|r| (0..size).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r][c] == color.code())
        .collect();
    for (row, col) in pawns {
        let Some(ahead) = row
            .checked_add_signed(color.forward())
            .filter(|&r| r < size)
        else {
            continue;
        };
        let other = if rng.chance(3, 4) {
            color.opponent().code()
        } else {
            color.code()
        };
        let target = match rng.below(3) {
            // Across the edge: the square a wrapped index reaches.
            0 if col == 0 => size - 1,
            0 if col == size - 1 => 0,
            0 | 1 => col.saturating_sub(1),
            _ => (col + 1).min(size - 1),
        };
        if target != col {
            rows[ahead][target] = other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session::CallSession;
    use super::*;
    use crate::games::Session;

    fn battery(dialect: &str) -> MiniBattery {
        MiniBattery {
            functions: *super::super::dialect::functions(dialect).unwrap(),
        }
    }

    fn plan(seed: u64) -> Plan {
        Plan {
            seed,
            games: 6,
            plies: 10,
        }
    }

    #[test]
    fn every_line_is_defined_and_the_families_reach_their_cases() {
        for dialect in ["ecs10", "hexapawn"] {
            let functions = super::super::dialect::functions(dialect).unwrap();
            let battery = MiniBattery {
                functions: *functions,
            };
            for family in &FAMILIES {
                let lines = battery.lines(family, plan(Plan::DEFAULT_SEED));
                assert!(lines.len() >= 50, "{}", family.name);
                let mut session = CallSession::new(functions);
                let (mut sizes, mut captures, mut wraps, mut blocked) = (Vec::new(), 0, 0, 0);
                for line in &lines {
                    assert!(session.is_defined(line), "{}: {line}", family.name);
                    let reply = session.respond(line);
                    assert!(!reply.text.starts_with('!'), "{line}: {}", reply.text);
                    if let Ok(super::super::dialect::Call::Maker { board, color }) =
                        functions.parse(line)
                    {
                        let size = board.size();
                        sizes.push(size);
                        captures += board.moves(color).iter().filter(|m| m.is_capture()).count();
                        for (row, col) in board.pawns(color) {
                            let ahead = row.checked_add_signed(color.forward()).unwrap();
                            let across = if col == 0 { size - 1 } else { 0 };
                            if (col == 0 || col == size - 1)
                                && board.pawn_at(ahead, across) == Some(color.opponent())
                            {
                                wraps += 1;
                            }
                            if board.pawn_at(ahead, col).is_some() {
                                blocked += 1;
                            }
                        }
                    }
                }
                if family.name == "chooser" {
                    continue;
                }
                for size in MIN_SIZE..=MAX_SIZE {
                    assert!(sizes.contains(&size), "{}: size {size}", family.name);
                }
                assert!(blocked > 10, "{}: {blocked} blocked pawns", family.name);
                if family.name == "captures" {
                    assert!(captures > 30, "{captures} captures");
                    assert!(wraps > 5, "{wraps} pawns beside a wrapped capture");
                }
            }
        }
    }

    #[test]
    fn the_same_seed_repeats_the_lines_and_another_changes_them() {
        for family in &FAMILIES {
            let lines = battery("ecs10").lines(family, plan(1));
            assert_eq!(lines, battery("ecs10").lines(family, plan(1)));
            assert_ne!(lines, battery("ecs10").lines(family, plan(2)));
        }
    }
}
