//! Piece placement: one bitboard per role and per colour, plus a square-indexed mailbox for
//! constant-time "what is on this square".

use super::attacks;
use super::bitboard::Bitboard;
use super::types::{Color, Piece, Role, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
    squares: [Option<Piece>; 64],
}

impl Board {
    pub(crate) const fn empty() -> Board {
        Board {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            squares: [None; 64],
        }
    }

    /// The initial array of the standard game.
    pub(crate) fn standard() -> Board {
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        let mut board = Board::empty();
        for (file, role) in (0u8..).zip(back) {
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                board.put_on(file, back_rank, Piece::new(color, role));
                board.put_on(file, pawn_rank, Piece::new(color, Role::Pawn));
            }
        }
        board
    }

    fn put_on(&mut self, file: u8, rank: u8, piece: Piece) {
        if let Some(sq) = Square::from_coords(file, rank) {
            self.put(sq, piece);
        }
    }

    #[inline]
    pub(crate) fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline]
    pub(crate) fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    #[inline]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    pub(crate) fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline]
    pub(crate) fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    #[inline]
    pub(crate) fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color(color) & self.by_role(role)
    }

    /// Rooks and queens: the pieces that slide along ranks and files.
    #[inline]
    pub(crate) fn rook_sliders(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens: the pieces that slide along diagonals.
    #[inline]
    pub(crate) fn bishop_sliders(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The king of `color`; every position the engine builds has exactly one per side.
    #[inline]
    pub(crate) fn king_of(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Places `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        let bit = Bitboard::from_square(sq);
        self.roles[piece.role.index()] |= bit;
        self.colors[piece.color.index()] |= bit;
        self.squares[sq.index()] = Some(piece);
    }

    /// Empties `sq`, returning what was there.
    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.squares[sq.index()].take()?;
        let bit = Bitboard::from_square(sq);
        self.roles[piece.role.index()] ^= bit;
        self.colors[piece.color.index()] ^= bit;
        Some(piece)
    }

    /// Moves whatever stands on `from` to the empty square `to`.
    #[inline]
    pub(crate) fn relocate(&mut self, from: Square, to: Square) {
        if let Some(piece) = self.remove(from) {
            self.put(to, piece);
        }
    }

    /// Pieces of `by` attacking `sq`, with sliders seeing through everything not in
    /// `occupied`.
    pub(crate) fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(by);
        let leapers = (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(by.other(), sq) & self.by_role(Role::Pawn));
        let sliders = (attacks::rook_attacks(sq, occupied) & self.rook_sliders())
            | (attacks::bishop_attacks(sq, occupied) & self.bishop_sliders());
        (leapers | sliders) & theirs
    }

    /// Count of pieces of each colour and role, for material checks.
    pub(crate) fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces(color, role).count()
    }
}
