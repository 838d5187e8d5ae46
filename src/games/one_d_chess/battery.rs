//! The 1D chess battery (project5): seeded boards set up with `set_board`, so each family
//! reaches its cases at once (a knight beside an edge, a king with an empty run to its edge,
//! a king gone) instead of waiting for a game to wander there. Knights are moved only in the
//! knight family and kings only in the king family, and `is_valid_move` and `is_game_over`
//! are asked about boards no submission code has touched, so a bug in one rule fails its own
//! family and no other.

use super::engine::{Board, Direction, Kind, Piece, Side, CELLS};
use crate::games::battery::{Battery, Family, Plan};
use crate::rng::Rng;

static FAMILIES: [Family; 4] = [
    Family {
        name: "knight",
        about: "knights jump exactly two cells over anything, capture whatever they land on (own pieces and kings too), and stay put when the target is off the board",
        judge: &["board"],
    },
    Family {
        name: "king",
        about: "kings slide to the first piece (captured, own pieces too) or to the last cell at the edge, and stay put at their own edge",
        judge: &["board"],
    },
    Family {
        name: "valid move",
        about: "is_valid_move on the player's pieces, the other side's, empty cells and positions off the board, negative ones too",
        judge: &["value"],
    },
    Family {
        name: "game over",
        about: "is_game_over with both kings on the board and once either king is gone: the value and the winner's message",
        judge: &["value", "printed"],
    },
];

/// The 1D chess battery of the project5 dialect.
pub struct OneDBattery;

impl Battery for OneDBattery {
    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    fn lines(&self, family: &Family, plan: Plan) -> Vec<String> {
        let mut rng = plan.rng(family);
        let mut lines = Vec::new();
        for _ in 0..plan.games {
            match family.name {
                "knight" => moves(Kind::Knight, plan.plies, &mut rng, &mut lines),
                "king" => moves(Kind::King, plan.plies, &mut rng, &mut lines),
                "valid move" => validity(plan.plies, &mut rng, &mut lines),
                _ => game_over(plan.plies, &mut rng, &mut lines),
            }
        }
        lines
    }
}

/// The `set_board` line of `board`.
fn set_board(board: &Board) -> String {
    let cells: Vec<&str> = board
        .cells()
        .iter()
        .map(|c| c.map_or("EMPTY", |p| p.code()))
        .collect();
    format!("set_board {}", cells.join(" "))
}

/// A board of at most one king and two knights a side, with the kings `kings` names.
fn random_board(rng: &mut Rng, kings: &[Side], knights: usize) -> Board {
    let mut free: Vec<usize> = (0..CELLS).collect();
    let mut cells = [None; CELLS];
    let mut place = |piece: Piece, rng: &mut Rng| {
        if !free.is_empty() {
            let cell = free.swap_remove(rng.below(free.len()));
            cells[cell] = Some(piece);
        }
    };
    for &side in kings {
        place(Piece::new(side, Kind::King), rng);
    }
    for _ in 0..knights {
        let side = if rng.chance(1, 2) {
            Side::White
        } else {
            Side::Black
        };
        place(Piece::new(side, Kind::Knight), rng);
    }
    Board::from_cells(cells)
}

/// Which kings a board holds: mostly both, sometimes one.
fn some_kings(rng: &mut Rng) -> &'static [Side] {
    match rng.below(6) {
        0 => &[Side::White],
        1 => &[Side::Black],
        _ => &[Side::White, Side::Black],
    }
}

fn word(direction: Direction) -> &'static str {
    match direction {
        Direction::Left => "LEFT",
        Direction::Right => "RIGHT",
    }
}

/// Moves of pieces of `kind` (through `move` and the kind's own function), each followed by
/// the board, on boards set up afresh whenever no such piece is left.
fn moves(kind: Kind, plies: usize, rng: &mut Rng, lines: &mut Vec<String>) {
    let function = match kind {
        Kind::King => "move_king",
        Kind::Knight => "move_knight",
    };
    let mut board = Board::start();
    let mut pieces: Vec<usize> = Vec::new();
    for ply in 0..plies {
        if ply == 0 || pieces.is_empty() {
            let (kings, knights) = (some_kings(rng), 1 + rng.below(4));
            board = random_board(rng, kings, knights);
            lines.push(set_board(&board));
        }
        pieces = cells_of(&board, kind);
        let Some(&from) = rng.pick(&pieces) else {
            continue;
        };
        // Half the time towards the nearer edge, where the edge rules decide.
        let towards_edge = if from < CELLS / 2 {
            Direction::Left
        } else {
            Direction::Right
        };
        let direction = match rng.below(4) {
            0 | 1 => towards_edge,
            2 => Direction::Left,
            _ => Direction::Right,
        };
        let name = if rng.chance(1, 2) { "move" } else { function };
        lines.push(format!("{name} {from} {}", word(direction)));
        lines.push("board".to_string());
        // A cell of the kind was chosen, so the move is carried out.
        let _ = board.play(from as i64, direction);
        pieces = cells_of(&board, kind);
    }
}

fn cells_of(board: &Board, kind: Kind) -> Vec<usize> {
    (0..CELLS)
        .filter(|&i| board.cells()[i].is_some_and(|p| p.kind == kind))
        .collect()
}

/// `is_valid_move` on each board for positions on and off it, both players.
fn validity(plies: usize, rng: &mut Rng, lines: &mut Vec<String>) {
    let (kings, knights) = (some_kings(rng), 1 + rng.below(4));
    let board = random_board(rng, kings, knights);
    lines.push(set_board(&board));
    const OFF: [i64; 7] = [-1, -2, -5, -9, 9, 10, 17];
    for _ in 0..plies {
        let position = match rng.chance(1, 3) {
            true => OFF[rng.below(OFF.len())],
            false => rng.below(CELLS) as i64,
        };
        let side = if rng.chance(1, 2) { "WHITE" } else { "BLACK" };
        lines.push(format!("is_valid_move {position} {side}"));
    }
}

/// `is_game_over` on boards with both kings, White's only and Black's only.
fn game_over(plies: usize, rng: &mut Rng, lines: &mut Vec<String>) {
    const KINGS: [&[Side]; 3] = [&[Side::White, Side::Black], &[Side::White], &[Side::Black]];
    for ply in 0..plies {
        let kings = KINGS[(ply + rng.below(KINGS.len())) % KINGS.len()];
        let knights = rng.below(5);
        let board = random_board(rng, kings, knights);
        lines.push(set_board(&board));
        lines.push("is_game_over".to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::super::project5::Project5;
    use super::*;
    use crate::games::Session;
    use std::collections::BTreeSet;

    fn plan(seed: u64) -> Plan {
        Plan {
            seed,
            games: 6,
            plies: 12,
        }
    }

    /// Every line the reference carries out (none is left undefined by the handout), and
    /// the cases each family is about are reached.
    #[test]
    fn every_line_is_defined_and_each_family_reaches_its_cases() {
        for family in &FAMILIES {
            let lines = OneDBattery.lines(family, plan(Plan::DEFAULT_SEED));
            let mut session = Project5::new();
            let mut seen = BTreeSet::new();
            for line in &lines {
                let before = board_of(&mut session);
                assert!(session.is_defined(line), "{}: {line}", family.name);
                let reply = session.respond(line);
                assert!(!session.rejected(), "{}: {line}", family.name);
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    [_, from, dir] if words[0].starts_with("move") => {
                        let from: usize = from.parse().unwrap();
                        let after = board_of(&mut session);
                        seen.insert(match (after == before, before[from] == after[from]) {
                            (true, _) => "stays put",
                            _ if before.iter().filter(|c| *c != "EMPTY").count()
                                > after.iter().filter(|c| *c != "EMPTY").count() =>
                            {
                                "captures"
                            }
                            _ if *dir == "LEFT" => "moves left",
                            _ => "moves right",
                        });
                    }
                    ["is_valid_move", position, _] => {
                        let position: i64 = position.parse().unwrap();
                        let value = reply.text.trim().to_string();
                        let off = !(0..CELLS as i64).contains(&position);
                        seen.insert(match (off, value.as_str()) {
                            (true, _) if position < 0 => "negative",
                            (true, _) => "past the end",
                            (false, "True") => "own piece",
                            _ => "refused",
                        });
                    }
                    ["is_game_over"] => {
                        seen.insert(if reply.text.contains("White wins!") {
                            "white wins"
                        } else if reply.text.contains("Black wins!") {
                            "black wins"
                        } else {
                            "goes on"
                        });
                    }
                    _ => {}
                }
            }
            let wanted: &[&str] = match family.name {
                "knight" | "king" => &["stays put", "captures", "moves left", "moves right"],
                "valid move" => &["negative", "past the end", "own piece", "refused"],
                _ => &["white wins", "black wins", "goes on"],
            };
            for case in wanted {
                assert!(seen.contains(case), "{}: {case} never reached", family.name);
            }
        }
    }

    fn board_of(session: &mut Project5) -> Vec<String> {
        session
            .respond("board")
            .text
            .trim()
            .trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|c| c.trim_matches('\'').to_string())
            .collect()
    }

    #[test]
    fn knights_and_kings_are_moved_only_in_their_own_family() {
        for family in &FAMILIES {
            let mut board = Board::start();
            for line in OneDBattery.lines(family, plan(3)) {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words[0] == "set_board" {
                    let mut cells = [None; CELLS];
                    for (cell, code) in cells.iter_mut().zip(&words[1..]) {
                        *cell = Piece::from_code(code);
                    }
                    board = Board::from_cells(cells);
                } else if words[0].starts_with("move") {
                    let from: usize = words[1].parse().unwrap();
                    let kind = board.cells()[from].unwrap().kind;
                    let expected = if kind == Kind::King { "king" } else { "knight" };
                    assert_eq!(family.name, expected, "{line}");
                    let direction = if words[2] == "LEFT" {
                        Direction::Left
                    } else {
                        Direction::Right
                    };
                    board.play(from as i64, direction).unwrap();
                }
            }
        }
    }

    #[test]
    fn the_same_seed_repeats_the_lines_and_another_changes_them() {
        for family in &FAMILIES {
            let lines = OneDBattery.lines(family, plan(1));
            assert_eq!(lines, OneDBattery.lines(family, plan(1)));
            assert_ne!(lines, OneDBattery.lines(family, plan(2)));
        }
    }
}
