//! Moves as produced by move generation. Fields are private: a `Move` only comes from a
//! position's legal moves, so it always carries consistent piece and capture information.

use super::types::{CastlingSide, Role, Square};
use std::fmt;

/// What kind of move, beyond from/to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MoveKind {
    Normal,
    /// A pawn's two-square first step (creates an en passant square).
    DoublePush,
    EnPassant,
    /// The king's move of a castling; `from`/`to` are the king's squares.
    Castle(CastlingSide),
    Promotion(Role),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    role: Role,
    capture: Option<Role>,
    kind: MoveKind,
}

impl Move {
    #[inline]
    pub(crate) const fn new(
        role: Role,
        from: Square,
        to: Square,
        capture: Option<Role>,
        kind: MoveKind,
    ) -> Move {
        Move {
            from,
            to,
            role,
            capture,
            kind,
        }
    }

    pub const fn from(&self) -> Square {
        self.from
    }

    pub const fn to(&self) -> Square {
        self.to
    }

    /// The moving piece's role (before any promotion).
    pub const fn role(&self) -> Role {
        self.role
    }

    /// The captured piece's role; a pawn for en passant.
    pub const fn captured(&self) -> Option<Role> {
        self.capture
    }

    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    pub const fn is_en_passant(&self) -> bool {
        matches!(self.kind, MoveKind::EnPassant)
    }

    pub const fn castling_side(&self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle(side) => Some(side),
            _ => None,
        }
    }

    pub const fn promotion(&self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    pub(crate) const fn kind(&self) -> MoveKind {
        self.kind
    }

    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub fn uci(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion() {
            Some(role) => write!(f, "{}", role.char()),
            None => Ok(()),
        }
    }
}
