//! Which rule of chess a move attempt exercises: the battery sorts the moves it tries into
//! rule families with it, and a failed step is named by it ("castling: a legal queen-side
//! castle was refused"). A move is judged in its position and the game's history (whether a
//! king or rook has moved), as a team's program must judge it.

use super::attacks::{between, rook_attacks};
use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks};
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{CastlingSide, Color, Role, Square};

/// The rule families of the chess battery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    MoveShape,
    CheckAndPins,
    Castling,
    EnPassant,
    Promotion,
    GameEnd,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::MoveShape,
        Kind::CheckAndPins,
        Kind::Castling,
        Kind::EnPassant,
        Kind::Promotion,
        Kind::GameEnd,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Kind::MoveShape => "move shape",
            Kind::CheckAndPins => "check and pins",
            Kind::Castling => "castling",
            Kind::EnPassant => "en passant",
            Kind::Promotion => "promotion",
            Kind::GameEnd => "game end",
        }
    }
}

/// One rule a move attempt exercises: its family, a fixed event name (counted by coverage)
/// and the case in words ("a king-side castle with f1 attacked").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub kind: Kind,
    pub event: Event,
    pub text: String,
    /// Whether the reference plays the move.
    pub legal: bool,
}

impl Rule {
    fn new(kind: Kind, event: Event, text: impl Into<String>, legal: bool) -> Rule {
        Rule {
            kind,
            event,
            text: text.into(),
            legal,
        }
    }

    /// The sentence a report shows when a submission answered this move wrongly:
    /// `accepted` is whether the submission played it.
    pub fn failure(&self, accepted: Option<bool>) -> String {
        let what = match (self.legal, accepted) {
            (true, Some(false)) => "was refused",
            (false, Some(true)) => "was accepted",
            _ => "was answered wrongly",
        };
        let case = if self.legal {
            format!("a legal {}", self.text)
        } else {
            self.text.clone()
        };
        format!("{}: {case} {what}", self.kind.name())
    }
}

crate::rule_events! {
    /// Every event the classifier names, by family: what coverage counts.
    pub enum Event {
        OrdinaryMove => (Kind::MoveShape.name(), "ordinary move"),
        Capture => (Kind::MoveShape.name(), "capture"),
        MalformedMove => (Kind::MoveShape.name(), "malformed move"),
        FromAnEmptySquare => (Kind::MoveShape.name(), "from an empty square"),
        PieceOfTheSideNotToMove => (Kind::MoveShape.name(), "piece of the side not to move"),
        OntoAnOwnPiece => (Kind::MoveShape.name(), "onto an own piece"),
        PawnStepOntoAPiece => (Kind::MoveShape.name(), "pawn step onto a piece"),
        OffThePiecesPattern => (Kind::MoveShape.name(), "off the piece's pattern"),
        ThroughAPiece => (Kind::MoveShape.name(), "through a piece"),
        KingStepOntoASafeSquare => (Kind::CheckAndPins.name(), "king step onto a safe square"),
        CheckEvadedByTheKing => (Kind::CheckAndPins.name(), "check evaded by the king"),
        CheckEvadedByCapturingTheChecker => (Kind::CheckAndPins.name(), "check evaded by capturing the checker"),
        CheckEvadedByABlock => (Kind::CheckAndPins.name(), "check evaded by a block"),
        CheckIgnored => (Kind::CheckAndPins.name(), "check ignored"),
        PinnedPieceLeavesItsLine => (Kind::CheckAndPins.name(), "pinned piece leaves its line"),
        KingOntoAnAttackedSquare => (Kind::CheckAndPins.name(), "king onto an attacked square"),
        KingNextToTheEnemyKing => (Kind::CheckAndPins.name(), "king next to the enemy king"),
        KingOntoASquareAPawnAttacks => (Kind::CheckAndPins.name(), "king onto a square a pawn attacks"),
        KingSideCastle => (Kind::Castling.name(), "king-side castle"),
        QueenSideCastle => (Kind::Castling.name(), "queen-side castle"),
        CastleRefusedKingMoved => (Kind::Castling.name(), "castle refused: king moved"),
        CastleRefusedRookMoved => (Kind::Castling.name(), "castle refused: rook moved"),
        CastleRefusedPathOccupied => (Kind::Castling.name(), "castle refused: path occupied"),
        CastleRefusedInCheck => (Kind::Castling.name(), "castle refused: in check"),
        CastleRefusedPathAttacked => (Kind::Castling.name(), "castle refused: path attacked"),
        EnPassant => (Kind::EnPassant.name(), "en passant"),
        EnPassantRefusedWindowPassed => (Kind::EnPassant.name(), "en passant refused: window passed"),
        PawnDiagonalOntoAnEmptySquare => (Kind::EnPassant.name(), "pawn diagonal onto an empty square"),
        Promotion => (Kind::Promotion.name(), "promotion"),
        PromotionWithCapture => (Kind::Promotion.name(), "promotion with capture"),
        Checkmate => (Kind::GameEnd.name(), "checkmate"),
        Stalemate => (Kind::GameEnd.name(), "stalemate"),
        MoveAfterTheEnd => (Kind::GameEnd.name(), "move after the end"),
    }
}

/// What a game's history says about castling: whether each king and rook has left its
/// square (rights alone do not say which of them moved).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct History {
    /// Squares moved from or captured on, of the six castling squares.
    left: u64,
    /// The en passant square of the position before the last move, and of the one before
    /// that: a capture onto the older one comes one move after its window.
    previous_ep: Option<Square>,
    late_ep: Option<Square>,
}

impl History {
    /// Records a move played in `before`.
    pub fn record(&mut self, before: &Position, m: &Move) {
        self.left |= 1 << m.from().index() | 1 << m.to().index();
        self.late_ep = self.previous_ep;
        self.previous_ep = before.ep_square();
    }
}

/// The rule a `play_move` string exercises: a malformed one (anything but
/// `[a-h][1-8][a-h][1-8]`) is a move-shape error.
pub fn classify_text(position: &Position, history: &History, text: &str) -> Rule {
    let squares = (text.len() == 4)
        .then(|| {
            Some((
                Square::parse(text.get(..2)?)?,
                Square::parse(text.get(2..)?)?,
            ))
        })
        .flatten();
    match squares {
        Some((from, to)) => classify(position, history, from, to),
        None => Rule::new(
            Kind::MoveShape,
            Event::MalformedMove,
            format!("a malformed move {text:?}"),
            false,
        ),
    }
}

/// The rule a move string from `from` to `to` exercises in `position` after `history`.
pub fn classify(position: &Position, history: &History, from: Square, to: Square) -> Rule {
    classify_among(position, &position.legal_moves(), history, from, to)
}

/// [`classify`] given the position's legal moves.
pub fn classify_among(
    position: &Position,
    legal: &[Move],
    history: &History,
    from: Square,
    to: Square,
) -> Rule {
    let found = legal.iter().find(|m| m.from() == from && m.to() == to);
    if legal.is_empty() {
        return Rule::new(
            Kind::GameEnd,
            Event::MoveAfterTheEnd,
            "a move after the game ended",
            false,
        );
    }
    match found {
        Some(m) => legal_rule(position, m),
        None => illegal_rule(position, history, from, to),
    }
}

fn legal_rule(position: &Position, m: &Move) -> Rule {
    let mut after = *position;
    after.play_unchecked(*m);
    if let Some(side) = m.castling_side() {
        let (event, name) = match side {
            CastlingSide::KingSide => (Event::KingSideCastle, "king-side castle"),
            CastlingSide::QueenSide => (Event::QueenSideCastle, "queen-side castle"),
        };
        let text = format!("{name} {}{}", m.from(), m.to());
        return Rule::new(Kind::Castling, event, text, true);
    }
    if m.is_en_passant() {
        return Rule::new(
            Kind::EnPassant,
            Event::EnPassant,
            format!("en passant capture {}{}", m.from(), m.to()),
            true,
        );
    }
    if m.promotion().is_some() {
        return match m.is_capture() {
            true => Rule::new(
                Kind::Promotion,
                Event::PromotionWithCapture,
                format!("promotion with a capture {}{}", m.from(), m.to()),
                true,
            ),
            false => Rule::new(
                Kind::Promotion,
                Event::Promotion,
                format!("promotion {}{}", m.from(), m.to()),
                true,
            ),
        };
    }
    match after.outcome() {
        Some(super::Outcome::Checkmate { .. }) => {
            return Rule::new(
                Kind::GameEnd,
                Event::Checkmate,
                format!("mating move {}{}", m.from(), m.to()),
                true,
            )
        }
        Some(_) => {
            return Rule::new(
                Kind::GameEnd,
                Event::Stalemate,
                format!("stalemating move {}{}", m.from(), m.to()),
                true,
            )
        }
        None => {}
    }
    if position.is_check() {
        let (event, how) = if m.role() == Role::King {
            (Event::CheckEvadedByTheKing, "king move out of check")
        } else if m.is_capture() {
            (
                Event::CheckEvadedByCapturingTheChecker,
                "capture of the checking piece",
            )
        } else {
            (Event::CheckEvadedByABlock, "block of a check")
        };
        return Rule::new(
            Kind::CheckAndPins,
            event,
            format!("{how} {}{}", m.from(), m.to()),
            true,
        );
    }
    if m.role() == Role::King {
        return Rule::new(
            Kind::CheckAndPins,
            Event::KingStepOntoASafeSquare,
            format!("king step {}{} onto a safe square", m.from(), m.to()),
            true,
        );
    }
    let (event, text) = match m.is_capture() {
        true => (Event::Capture, "capture"),
        false => (Event::OrdinaryMove, "move"),
    };
    Rule::new(
        Kind::MoveShape,
        event,
        format!("{text} {}{}", m.from(), m.to()),
        true,
    )
}

fn illegal_rule(position: &Position, history: &History, from: Square, to: Square) -> Rule {
    let shape = |event, text: String| Rule::new(Kind::MoveShape, event, text, false);
    let mv = format!("{from}{to}");
    let Some(piece) = position.piece_at(from) else {
        return shape(
            Event::FromAnEmptySquare,
            format!("a move {mv} from an empty square"),
        );
    };
    let us = position.turn();
    if piece.color != us {
        return shape(
            Event::PieceOfTheSideNotToMove,
            format!("a move {mv} of the side not to move"),
        );
    }
    let target = position.piece_at(to);
    if target.is_some_and(|t| t.color == us) {
        return shape(
            Event::OntoAnOwnPiece,
            format!("a move {mv} onto an own piece"),
        );
    }
    let occupied = position.board.occupied();
    let forward: i8 = if us == Color::White { 1 } else { -1 };
    let pseudo = match piece.role {
        Role::King if from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2 => {
            return castle_rule(position, history, from, to)
        }
        Role::King => king_attacks(from).contains(to),
        Role::Knight => knight_attacks(from).contains(to),
        Role::Bishop => bishop_attacks(from, occupied).contains(to),
        Role::Rook => rook_attacks(from, occupied).contains(to),
        Role::Queen => queen_attacks(from, occupied).contains(to),
        Role::Pawn => {
            let diagonal = pawn_attacks(us, from).contains(to);
            let step = from.offset(0, forward) == Some(to);
            let home = if us == Color::White { 1 } else { 6 };
            let double = from.rank() == home && from.offset(0, 2 * forward) == Some(to);
            if diagonal && target.is_none() {
                return pawn_diagonal_rule(position, history, from, to);
            }
            if (step || double) && target.is_some() {
                return shape(
                    Event::PawnStepOntoAPiece,
                    format!("a pawn step {mv} onto a piece"),
                );
            }
            if double && (between(from, to) & occupied).non_empty() {
                return shape(
                    Event::ThroughAPiece,
                    format!("a pawn's double step {mv} through a piece"),
                );
            }
            diagonal || step || double
        }
    };
    if !pseudo {
        let open = match piece.role {
            Role::Bishop => bishop_attacks(from, Bitboard::EMPTY).contains(to),
            Role::Rook => rook_attacks(from, Bitboard::EMPTY).contains(to),
            Role::Queen => queen_attacks(from, Bitboard::EMPTY).contains(to),
            _ => false,
        };
        return match open {
            true => shape(Event::ThroughAPiece, format!("a move {mv} through a piece")),
            false => shape(
                Event::OffThePiecesPattern,
                format!("a move {mv} the piece cannot make"),
            ),
        };
    }
    check_rule(position, piece.role, from, to)
}

/// Why a move the piece can make leaves its own king in check.
fn check_rule(position: &Position, role: Role, from: Square, to: Square) -> Rule {
    let check = |event, text: String| Rule::new(Kind::CheckAndPins, event, text, false);
    let mv = format!("{from}{to}");
    let us = position.turn();
    if role == Role::King {
        if let Some(theirs) = position.board.king_of(!us) {
            if king_attacks(theirs).contains(to) {
                return check(
                    Event::KingNextToTheEnemyKing,
                    format!("a king step {mv} next to the enemy king"),
                );
            }
        }
        let pawns = position.board.pieces(!us, Role::Pawn);
        if (pawn_attacks(us, to) & pawns).non_empty() {
            return check(
                Event::KingOntoASquareAPawnAttacks,
                format!("a king step {mv} onto a square an enemy pawn attacks"),
            );
        }
        return check(
            Event::KingOntoAnAttackedSquare,
            format!("a king step {mv} onto an attacked square"),
        );
    }
    if position.is_check() {
        return check(
            Event::CheckIgnored,
            format!("a move {mv} that leaves the king in check"),
        );
    }
    check(
        Event::PinnedPieceLeavesItsLine,
        format!("a move {mv} of a pinned piece"),
    )
}

/// A pawn's diagonal step onto an empty square: en passant in its window is legal (and
/// handled before); any other is refused, which is the en passant rule's other half (a
/// program that lets pawns take nothing breaks it however late or far the step is).
fn pawn_diagonal_rule(position: &Position, history: &History, from: Square, to: Square) -> Rule {
    let mv = format!("{from}{to}");
    if position.ep_square() == Some(to) {
        // Pseudo-legal en passant that would leave the king in check.
        return Rule::new(
            Kind::CheckAndPins,
            Event::PinnedPieceLeavesItsLine,
            format!("an en passant capture {mv} that leaves the king in check"),
            false,
        );
    }
    if history.late_ep == Some(to) {
        let beside = to.offset(
            0,
            if position.turn() == Color::White {
                -1
            } else {
                1
            },
        );
        let pawn_there = beside
            .and_then(|sq| position.piece_at(sq))
            .is_some_and(|p| p.role == Role::Pawn && p.color != position.turn());
        if pawn_there {
            return Rule::new(
                Kind::EnPassant,
                Event::EnPassantRefusedWindowPassed,
                format!("an en passant capture {mv} one move after its window"),
                false,
            );
        }
    }
    Rule::new(
        Kind::EnPassant,
        Event::PawnDiagonalOntoAnEmptySquare,
        format!("a pawn's diagonal step {mv} onto an empty square"),
        false,
    )
}

/// Why a castle is refused (the king's two-square move from its home square).
fn castle_rule(position: &Position, history: &History, from: Square, to: Square) -> Rule {
    let us = position.turn();
    let side = if to.file() > from.file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    let name = match side {
        CastlingSide::KingSide => "king-side castle",
        CastlingSide::QueenSide => "queen-side castle",
    };
    let castle = |event, why: String| {
        Rule::new(
            Kind::Castling,
            event,
            format!("a {name} {from}{to} {why}"),
            false,
        )
    };
    let rank = us.back_rank();
    let home = Square::from_coords(4, rank);
    let rook_home = Square::from_coords(if side == CastlingSide::KingSide { 7 } else { 0 }, rank);
    let (Some(home), Some(rook_home)) = (home, rook_home) else {
        return castle(Event::CastleRefusedKingMoved, "off the board".into());
    };
    if from != home {
        return Rule::new(
            Kind::MoveShape,
            Event::OffThePiecesPattern,
            format!("a king move {from}{to} of two squares away from its home square"),
            false,
        );
    }
    if history.left & (1 << home.index()) != 0 {
        return castle(Event::CastleRefusedKingMoved, "after the king moved".into());
    }
    let rook_there = position
        .piece_at(rook_home)
        .is_some_and(|p| p.role == Role::Rook && p.color == us);
    if history.left & (1 << rook_home.index()) != 0 || !rook_there {
        return castle(
            Event::CastleRefusedRookMoved,
            "after that rook moved or was taken".into(),
        );
    }
    let occupied = position.board.occupied();
    if let Some(blocker) = squares(between(home, rook_home) & occupied).next() {
        return castle(
            Event::CastleRefusedPathOccupied,
            format!("with {blocker} occupied"),
        );
    }
    if position.is_check() {
        return castle(Event::CastleRefusedInCheck, "while in check".into());
    }
    let path = between(home, to) | Bitboard::from_square(to);
    let attacked =
        squares(path).find(|sq| position.board.attackers(*sq, !us, occupied).non_empty());
    match attacked {
        Some(sq) => castle(
            Event::CastleRefusedPathAttacked,
            format!("with {sq} attacked"),
        ),
        None => castle(
            Event::CastleRefusedKingMoved,
            "that the rules forbid".into(),
        ),
    }
}

fn squares(set: Bitboard) -> impl Iterator<Item = Square> {
    set
}
