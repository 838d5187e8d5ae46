//! The chess battery: for each rule family, seeded games that first steer to positions where
//! that family's rules decide (castling with an attacked path, a pawn that may take en
//! passant, a pawn on the seventh rank, a check to answer, a mate or stalemate in one), then
//! go on at random. At each position the battery tries the family's moves that a buggy
//! program most likely answers wrongly, and plays on with moves that exercise no other
//! family's rule, so that a bug in one rule fails its own family and no other.
//!
//! A check the king cannot step out of, though a capture or a block answers it, is where
//! programs most often end the game wrongly (a mate found by looking at the king alone); a
//! program that does ends every game passing through one. So only the game end family, which
//! judges that call, gives such a check: elsewhere a false mate would cost the family whose
//! game happened to pass there.

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::rules::{classify_among, Event, History, Kind, Rule};
use super::types::{Color, Role, Square};
use crate::games::battery::{Battery, Family, Plan};
use crate::rng::Rng;

const STATE: &[&str] = &["accepted", "board", "result"];

static FAMILIES: [Family; 7] = [
    Family {
        name: "move shape",
        about: "each piece's moves and captures, pawn steps, moves of the wrong side, from empty squares, onto own pieces, through pieces, malformed strings",
        judge: STATE,
    },
    Family {
        name: "check and pins",
        about: "king steps, moves that leave or put the own king in check (pinned pieces, king steps next to the enemy king or pawns), check evasions by king move, capture and block",
        judge: STATE,
    },
    Family {
        name: "castling",
        about: "castles on both wings, and castles refused after the king or rook moved, with a piece between, in check, or with an attacked square on the king's path",
        judge: STATE,
    },
    Family {
        name: "en passant",
        about: "pawn diagonals onto empty squares: en passant captures in their one-move window, refused one move later and anywhere else",
        judge: STATE,
    },
    Family {
        name: "promotion",
        about: "pawns reaching the last rank by a step or a capture, becoming queens",
        judge: STATE,
    },
    Family {
        name: "game end",
        about: "checkmate and stalemate in one, `result` after them, moves after the end; checks the king cannot step out of that a capture or block answers",
        judge: STATE,
    },
    Family {
        name: "notation",
        about: "the string play_move returns for ordinary moves and captures of every piece (the special moves' strings are their own scenarios')",
        judge: &["notation"],
    },
];

/// Openings that reach positions where a family's rules decide, as the moves played.
fn steering(kind: Option<Kind>) -> &'static [&'static [&'static str]] {
    match kind {
        Some(Kind::Castling) => &[
            // Both sides may castle on both wings.
            &[
                "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "d2d3", "d7d6", "c1g5", "c8g4",
                "b1c3", "b8c6", "d1d2", "d8d7",
            ],
            // f1 is attacked by the bishop on a6.
            &[
                "e2e4", "b7b6", "g2g3", "c8a6", "f1g2", "e7e6", "g1f3", "d7d6",
            ],
            // g1 is attacked by the bishop on c5.
            &[
                "f2f4", "e7e6", "g1f3", "f8c5", "g2g3", "g8f6", "f1g2", "d7d6",
            ],
            // White is in check with the king-side path clear.
            &[
                "d2d4", "e7e6", "g1f3", "g8f6", "g2g3", "b7b6", "f1g2", "f8b4",
            ],
            // Black may castle queen-side with b8 attacked by the knight on a6.
            &[
                "c2c3", "b8c6", "b1a3", "d7d6", "a3c2", "c8e6", "c2b4", "d8d7", "b4a6",
            ],
            // White's king and Black's king-side rook have moved and come back.
            &[
                "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1e2", "h8g8", "e2e1", "g8h8",
            ],
        ],
        Some(Kind::EnPassant) => &[
            &["e2e4", "a7a6", "e4e5", "d7d5"],
            &["e2e4", "a7a6", "e4e5", "f7f5"],
            &["g1f3", "d7d5", "f3g1", "d5d4", "e2e4"],
            &["g1f3", "d7d5", "f3g1", "d5d4", "c2c4"],
        ],
        Some(Kind::Promotion) => &[
            // The king may step to e7 out of the promoted queen's check.
            &[
                "h2h4", "g7g5", "h4g5", "h7h6", "g5h6", "f8g7", "h6g7", "g8f6", "a2a3", "e7e6",
            ],
            &[
                "a2a3", "h7h5", "g2g4", "h5g4", "h2h3", "g4h3", "f1g2", "h3g2", "g1f3",
            ],
            &[
                "a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "g8f6", "a6a7", "e7e6",
            ],
        ],
        Some(Kind::GameEnd) => &[
            // Checks the king cannot step out of, that are no mate: blocks only (b5, h5),
            // a capture of the checker (f3).
            &["e2e4", "d7d6", "f1b5"],
            &["e2e4", "f7f6", "d1h5"],
            &["a2a3", "b8c6", "a3a4", "c6d4", "b2b3", "d4f3"],
            // Black mates in one.
            &["f2f3", "e7e5", "g2g4"],
            // White mates in one.
            &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"],
            // White stalemates in one.
            &[
                "e2e3", "a7a5", "d1h5", "a8a6", "h5a5", "h7h5", "h2h4", "a6h6", "a5c7", "f7f6",
                "c7d7", "e8f7", "d7b7", "d8d3", "b7b8", "d3h7", "b8c8", "f7g6",
            ],
        ],
        Some(Kind::CheckAndPins) => &[
            // Black in check from b5: blocks, and the king's step to e7.
            &["e2e4", "e7e5", "g1f3", "d7d6", "f1b5"],
            // Black in check from c6: captures of the checker, blocks and the king's step.
            &["e2e4", "e7e5", "g1f3", "d7d6", "f1b5", "c7c6", "b5c6"],
            // The knight on c6 is pinned.
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "d7d6"],
            // The knight on d2 is pinned.
            &["d2d4", "e7e5", "b1d2", "f8b4"],
            // The kings face each other across d4 and e4.
            &[
                "e2e4", "d7d5", "e4d5", "e8d7", "e1e2", "d7d6", "e2e3", "d6d5",
            ],
            // The pawn on d4 guards e3 from the king.
            &["e2e4", "d7d5", "e1e2", "d5d4"],
        ],
        Some(Kind::MoveShape) => &[&[], &["e2e4", "e7e5", "g1f3", "b8c6"]],
        // Notation: open positions where every piece moves and captures.
        None => &[
            &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"],
            &["d2d4", "e7e5", "d4e5", "b8c6", "g1f3", "g8e7", "c1d2"],
        ],
    }
}

/// The chess battery (the ecs198f dialect and its variants).
pub struct ChessBattery;

impl Battery for ChessBattery {
    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    fn lines(&self, family: &Family, plan: Plan) -> Vec<String> {
        let kind = Kind::ALL.into_iter().find(|k| k.name() == family.name);
        let mut rng = plan.rng(family);
        let openings = steering(kind);
        let first = rng.below(openings.len());
        let mut lines = Vec::new();
        for game in 0..plan.games {
            let opening = openings[(first + game) % openings.len()];
            let mut player = Player::new(kind, &mut lines);
            player.play_game(opening, plan.plies, &mut rng);
        }
        lines
    }
}

/// One game of the battery, as it writes its lines.
struct Player<'a> {
    kind: Option<Kind>,
    position: Position,
    history: History,
    lines: &'a mut Vec<String>,
}

/// A legal or illegal move the battery may send, with the rule it exercises.
struct Candidate {
    from: Square,
    to: Square,
    rule: Rule,
    /// Whether, played, it checks the other king.
    checks: bool,
    /// Whether, played, it gives a check the king cannot step out of and that is no mate.
    shuts_in: bool,
    /// Whether, played, it ends the game (a mate or stalemate, whatever its rule).
    ends: bool,
}

impl<'a> Player<'a> {
    fn new(kind: Option<Kind>, lines: &'a mut Vec<String>) -> Player<'a> {
        lines.push("new_game".to_string());
        Player {
            kind,
            position: Position::startpos(),
            history: History::default(),
            lines,
        }
    }

    fn send_move(&mut self, from: Square, to: Square) {
        self.lines.push(format!("play_move {from}{to}"));
        let found = self
            .position
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == from && m.to() == to);
        if let Some(m) = found {
            self.history.record(&self.position, &m);
            self.position.play_unchecked(m);
        }
    }

    fn probe(&mut self, what: &str) {
        self.lines.push(what.to_string());
    }

    fn play_opening(&mut self, opening: &[&str]) {
        for uci in opening {
            let (from, to) = (Square::parse(&uci[..2]), Square::parse(&uci[2..4]));
            if let (Some(from), Some(to)) = (from, to) {
                self.send_move(from, to);
            }
        }
    }

    /// A new game in the session, from the start position.
    fn restart(&mut self) {
        self.lines.push("new_game".to_string());
        self.position = Position::startpos();
        self.history = History::default();
    }

    fn play_game(&mut self, opening: &[&str], plies: usize, rng: &mut Rng) {
        self.play_opening(opening);
        self.probe("board");
        if self.kind == Some(Kind::GameEnd) {
            self.probe("result");
        }
        // Where the opening steered to, every legal move of the family is played once, each
        // in a game of its own (the opening again), so none is left to chance.
        if let (Some(kind), false) = (self.kind, opening.is_empty()) {
            let ours: Vec<(Square, Square)> = self
                .candidates()
                .iter()
                .filter(|c| c.rule.legal && c.rule.kind == kind && self.may_play(c))
                .map(|c| (c.from, c.to))
                .collect();
            for (from, to) in ours {
                self.send_move(from, to);
                self.probe("board");
                self.probe("result");
                self.restart();
                self.play_opening(opening);
            }
        }
        let mut played = opening.len();
        while played < plies.max(opening.len() + 1) {
            let candidates = self.candidates();
            if candidates.iter().all(|c| !c.rule.legal) {
                break;
            }
            let ours = |c: &&Candidate| Some(c.rule.kind) == self.kind;
            let (legal, illegal): (Vec<&Candidate>, Vec<&Candidate>) =
                candidates.iter().filter(ours).partition(|c| c.rule.legal);
            let legal: Vec<&Candidate> = legal.into_iter().filter(|c| self.may_play(c)).collect();
            if self.kind.is_some() {
                for _ in 0..2 {
                    if let Some(c) = rng.pick(&illegal) {
                        self.lines.push(format!("play_move {}{}", c.from, c.to));
                    }
                }
            }
            if self.kind == Some(Kind::MoveShape) && rng.chance(1, 4) {
                let odd = [
                    "play_move",
                    "play_move e2",
                    "play_move e9e4",
                    "play_move e2-e4",
                ];
                if let Some(line) = rng.pick(&odd) {
                    self.lines.push(line.to_string());
                }
            }
            let chosen = match self.kind {
                None => self.any_move(&candidates, rng),
                Some(kind) => {
                    let mates: Vec<&Candidate> = legal
                        .iter()
                        .copied()
                        .filter(|c| c.rule.kind == Kind::GameEnd)
                        .collect();
                    let want = kind == Kind::GameEnd || rng.chance(1, 2);
                    let own = rng
                        .pick(if mates.is_empty() { &legal } else { &mates })
                        .copied();
                    match want {
                        true => own.or_else(|| self.context_move(&candidates, rng)),
                        false => self.context_move(&candidates, rng).or(own),
                    }
                }
            }
            .map(|c| {
                (
                    c.from,
                    c.to,
                    self.kind.is_some() && Some(c.rule.kind) == self.kind,
                )
            });
            let Some((from, to, ours)) = chosen else {
                break;
            };
            self.send_move(from, to);
            played += 1;
            if ours || played % 6 == 0 {
                self.probe("board");
            }
            if ours && matches!(self.kind, Some(Kind::GameEnd | Kind::CheckAndPins)) {
                self.probe("result");
            }
            if self.position.legal_moves().is_empty() {
                break;
            }
        }
        if self.position.legal_moves().is_empty() && self.kind == Some(Kind::GameEnd) {
            // A move after the end: any move of the side to move's pieces.
            let tries = self.candidates();
            if let Some(c) = rng.pick(&tries) {
                self.lines.push(format!("play_move {}{}", c.from, c.to));
            }
        }
        self.probe("board");
        self.probe("result");
    }

    /// Whether this family plays `candidate` when it is legal: a move that ends the game (a
    /// promotion that mates, say) or gives a check the king cannot step out of only in the
    /// game end family (see the module's header).
    fn may_play(&self, candidate: &Candidate) -> bool {
        !(candidate.shuts_in || candidate.ends) || self.kind == Some(Kind::GameEnd)
    }

    /// Any ordinary move or capture, a capture half the time there is one.
    fn any_move<'c>(&self, candidates: &'c [Candidate], rng: &mut Rng) -> Option<&'c Candidate> {
        let plain: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| c.rule.legal && c.rule.kind == Kind::MoveShape && self.may_play(c))
            .collect();
        let captures: Vec<&Candidate> = plain
            .iter()
            .copied()
            .filter(|c| c.rule.event == Event::Capture)
            .collect();
        if !captures.is_empty() && rng.chance(1, 2) {
            return rng.pick(&captures).copied();
        }
        rng.pick(&plain).copied()
    }

    /// A legal move that exercises no other family's rule (no castle, en passant,
    /// promotion, mate or check evasion); it gives check only in the families about checks.
    fn context_move<'c>(
        &self,
        candidates: &'c [Candidate],
        rng: &mut Rng,
    ) -> Option<&'c Candidate> {
        let checks_welcome = matches!(self.kind, Some(Kind::CheckAndPins | Kind::GameEnd));
        let plain: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| c.rule.legal && c.rule.kind == Kind::MoveShape)
            .filter(|c| (checks_welcome || !c.checks) && self.may_play(c))
            .collect();
        let preferred: Vec<&Candidate> = plain
            .iter()
            .copied()
            .filter(|c| match self.kind {
                Some(Kind::CheckAndPins | Kind::GameEnd) => c.checks,
                Some(Kind::Promotion) => {
                    self.position.piece_at(c.from).map(|p| p.role) == Some(Role::Pawn)
                }
                _ => false,
            })
            .collect();
        if !preferred.is_empty() && rng.chance(1, 2) {
            return rng.pick(&preferred).copied();
        }
        rng.pick(&plain).copied()
    }

    /// Every move a player might try here, legal or not, with its rule.
    fn candidates(&self) -> Vec<Candidate> {
        let legal: Vec<Move> = self.position.legal_moves();
        let mut pairs = attempts(&self.position);
        pairs.extend(legal.iter().map(|m| (m.from(), m.to())));
        pairs.sort();
        pairs.dedup();
        pairs
            .into_iter()
            .map(|(from, to)| {
                let rule = classify_among(&self.position, &legal, &self.history, from, to);
                let after = (legal.iter())
                    .find(|m| m.from() == from && m.to() == to)
                    .map(|m| {
                        let mut after = self.position;
                        after.play_unchecked(*m);
                        after
                    });
                Candidate {
                    from,
                    to,
                    rule,
                    checks: after.is_some_and(|after| after.is_check()),
                    shuts_in: after.is_some_and(|after| shut_in_check(&after)),
                    ends: after.is_some_and(|after| after.legal_moves().is_empty()),
                }
            })
            .collect()
    }
}

/// Whether the side to move is in check, cannot step its king out of it, and has a move
/// that answers it all the same (a capture of the checker or a block): no mate, though a
/// program looking at the king alone calls it one.
fn shut_in_check(position: &Position) -> bool {
    if !position.is_check() {
        return false;
    }
    let answers = position.legal_moves();
    !answers.is_empty() && answers.iter().all(|m| m.role() != Role::King)
}

/// Square pairs a player might try: each piece of the side to move to every square its
/// kind could reach on an empty board (and a king two files over, pawns one and two steps
/// on and diagonally), a few moves of the other side and from empty squares.
fn attempts(position: &Position) -> Vec<(Square, Square)> {
    let us = position.turn();
    let forward: i8 = if us == Color::White { 1 } else { -1 };
    let mut pairs = Vec::new();
    let mut empties = Vec::new();
    for from in (0..64).filter_map(Square::from_index) {
        let Some(piece) = position.piece_at(from) else {
            empties.push(from);
            continue;
        };
        let reach: Vec<Square> = match piece.role {
            Role::King => king_attacks(from)
                .chain(
                    [from.offset(2, 0), from.offset(-2, 0)]
                        .into_iter()
                        .flatten(),
                )
                .collect(),
            Role::Knight => knight_attacks(from).collect(),
            Role::Bishop => bishop_attacks(from, Bitboard::EMPTY).collect(),
            Role::Rook => rook_attacks(from, Bitboard::EMPTY).collect(),
            Role::Queen => queen_attacks(from, Bitboard::EMPTY).collect(),
            Role::Pawn => {
                let dir = if piece.color == us { forward } else { -forward };
                [(0, 1), (0, 2), (-1, 1), (1, 1)]
                    .iter()
                    .filter_map(|&(df, dr)| from.offset(df, dr * dir))
                    .collect()
            }
        };
        if piece.color == us {
            pairs.extend(reach.into_iter().map(|to| (from, to)));
        } else if let Some(to) = reach
            .into_iter()
            .find(|to| position.piece_at(*to).is_none())
        {
            pairs.push((from, to));
        }
    }
    for pair in empties.windows(2).step_by(9) {
        pairs.push((pair[0], pair[1]));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use std::collections::BTreeSet;

    #[test]
    fn every_steering_line_is_legal() {
        for kind in Kind::ALL.map(Some).into_iter().chain([None]) {
            for line in steering(kind) {
                let mut position = Position::startpos();
                for uci in *line {
                    let m = position.parse_uci(uci);
                    assert!(m.is_some(), "{kind:?}: {uci} in {line:?}");
                    position.play_unchecked(m.unwrap());
                }
            }
        }
    }

    /// The events each family's lines reach, counted by the reference session.
    fn events(family: &Family, plan: Plan) -> BTreeSet<&'static str> {
        let chess = crate::games::chess::Chess;
        let mut session = chess
            .start(&chess.dialects()[0], &Default::default())
            .unwrap();
        session.count_rule_events();
        for line in ChessBattery.lines(family, plan) {
            session.respond(&line);
        }
        session.take_rule_events().into_iter().collect()
    }

    #[test]
    fn each_family_reaches_every_event_of_its_own() {
        let plan = Plan {
            seed: Plan::DEFAULT_SEED,
            games: Plan::DEFAULT_GAMES,
            plies: Plan::DEFAULT_PLIES,
        };
        for kind in Kind::ALL {
            let family = FAMILIES.iter().find(|f| f.name == kind.name()).unwrap();
            let reached = events(family, plan);
            for event in Event::ALL.iter().filter(|e| e.family == kind.name()) {
                assert!(
                    reached.contains(event.name),
                    "{}: {} never reached",
                    kind.name(),
                    event.name
                );
            }
        }
    }

    /// How many times a family's games reach a position whose call on the game's end a
    /// program may get wrong: a mate, a stalemate, or a check the king cannot step out of.
    fn end_calls(family: &Family, plan: Plan) -> usize {
        let mut position = Position::startpos();
        let mut reached = 0;
        for line in ChessBattery.lines(family, plan) {
            if line == "new_game" {
                position = Position::startpos();
            }
            let Some(uci) = line.strip_prefix("play_move ") else {
                continue;
            };
            let square = |range: std::ops::Range<usize>| uci.get(range).and_then(Square::parse);
            let (from, to) = (square(0..2), square(2..uci.len()));
            let played = (position.legal_moves().into_iter())
                .find(|m| Some(m.from()) == from && Some(m.to()) == to);
            if let Some(m) = played {
                position.play_unchecked(m);
                let ended = position.legal_moves().is_empty();
                reached += usize::from(ended || shut_in_check(&position));
            }
        }
        reached
    }

    #[test]
    fn only_the_game_end_family_ends_games_or_gives_a_check_the_king_cannot_step_out_of() {
        for seed in [Plan::DEFAULT_SEED, 1, 2, 3] {
            let plan = Plan {
                seed,
                games: Plan::DEFAULT_GAMES,
                plies: Plan::DEFAULT_PLIES,
            };
            for family in &FAMILIES {
                let reached = end_calls(family, plan);
                match family.name == Kind::GameEnd.name() {
                    true => assert!(reached > 0, "seed {seed}: game end never reaches one"),
                    false => assert_eq!(reached, 0, "seed {seed}: {}", family.name),
                }
            }
        }
    }

    #[test]
    fn the_seed_changes_the_games_and_the_same_seed_repeats_them() {
        let plan = Plan {
            seed: 1,
            games: 2,
            plies: 30,
        };
        let family = &FAMILIES[0];
        assert_eq!(
            ChessBattery.lines(family, plan),
            ChessBattery.lines(family, plan)
        );
        assert_ne!(
            ChessBattery.lines(family, plan),
            ChessBattery.lines(family, Plan { seed: 2, ..plan })
        );
    }
}
