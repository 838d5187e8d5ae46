//! The move strings of the `ecs198f` dialect: what `play_move` accepts and what it returns.

use super::moves::Move;
use super::position::Position;
use super::types::{CastlingSide, Role, Square};

/// The legal move named by `text`, or `None`.
///
/// Strict form: exactly four characters `[a-h][1-8][a-h][1-8]`, from-square then
/// to-square; castling is the king's two-square move (`e1g1`), and a pawn reaching the last
/// rank always becomes a queen.
///
/// With `lenient`, also:
/// - `O-O`, `0-0` (king side) and `O-O-O`, `0-0-0` (queen side) for the side to move;
/// - one leading upper-case letter `K Q R B N P` before the four characters, which must
///   name the piece that moves (`Ng1f3`; `Bg1f3` is refused).
///
/// Nothing else: no spaces, no upper-case squares, no promotion suffix.
pub(crate) fn parse_move(pos: &Position, text: &str, lenient: bool) -> Option<Move> {
    if lenient {
        if let Some(side) = castling_word(text) {
            return pos
                .legal_moves()
                .into_iter()
                .find(|m| m.castling_side() == Some(side));
        }
        if let Some((role, rest)) = piece_prefix(text) {
            let m = coordinate_move(pos, rest)?;
            return (m.role() == role).then_some(m);
        }
    }
    coordinate_move(pos, text)
}

fn coordinate_move(pos: &Position, text: &str) -> Option<Move> {
    let from = Square::parse(text.get(0..2)?)?;
    let to = Square::parse(text.get(2..)?)?;
    pos.legal_moves().into_iter().find(|m| {
        m.from() == from && m.to() == to && matches!(m.promotion(), None | Some(Role::Queen))
    })
}

fn castling_word(text: &str) -> Option<CastlingSide> {
    match text {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

fn piece_prefix(text: &str) -> Option<(Role, &str)> {
    let letter = text.chars().next().filter(|c| "KQRBNP".contains(*c))?;
    Some((Role::from_char(letter)?, &text[1..]))
}

/// The dialect's "extended notation" of a move:
/// `{piece letter, lower case, none for pawns}{from}{x if capture}{to}{=Q if promotion}`,
/// with `0-0` / `0-0-0` for castling.
pub(crate) fn extended(m: &Move) -> String {
    match m.castling_side() {
        Some(CastlingSide::KingSide) => return "0-0".to_string(),
        Some(CastlingSide::QueenSide) => return "0-0-0".to_string(),
        None => {}
    }
    let mut text = String::with_capacity(8);
    if m.role() != Role::Pawn {
        text.push(m.role().char());
    }
    text.push_str(&m.from().to_string());
    if m.is_capture() {
        text.push('x');
    }
    text.push_str(&m.to().to_string());
    if let Some(role) = m.promotion() {
        text.push('=');
        text.push(role.char().to_ascii_uppercase());
    }
    text
}
