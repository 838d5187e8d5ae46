//! Forsyth-Edwards Notation: reading (with a precise error for each field) and writing.

use super::board::Board;
use super::castling::CastlingRights;
use super::position::Position;
use super::types::{CastlingSide, Color, Piece, Role, Square};

/// Why a FEN string was rejected; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("FEN has {0} fields; expected 6 (or 4, without the move counters)")]
    FieldCount(usize),
    #[error("piece placement (field 1): {0}")]
    Placement(String),
    #[error("side to move (field 2): expected `w` or `b`, found `{0}`")]
    SideToMove(String),
    #[error("castling rights (field 3): {0}")]
    Castling(String),
    #[error("en passant square (field 4): {0}")]
    EnPassant(String),
    #[error("halfmove clock (field 5): expected a whole number, found `{0}`")]
    HalfmoveClock(String),
    #[error("fullmove number (field 6): expected a positive whole number, found `{0}`")]
    FullmoveNumber(String),
    #[error("not a legal position: {0}")]
    IllegalPosition(String),
}

/// Long inputs are cut in error messages.
fn excerpt(text: &str) -> String {
    const LIMIT: usize = 24;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

impl Position {
    /// Parses a FEN (six fields, or four with the clocks defaulting to `0 1`) and checks
    /// that it describes a legal position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(excerpt(other))),
        };
        let castling = parse_castling(fields[2], &board)?;
        let ep_square = parse_en_passant(fields[3], &board, turn)?;
        let (halfmove_clock, fullmove_number) = match fields.get(4..6) {
            Some(&[half, full]) => (
                half.parse()
                    .map_err(|_| FenError::HalfmoveClock(excerpt(half)))?,
                full.parse()
                    .ok()
                    .filter(|&n: &u32| n >= 1)
                    .ok_or_else(|| FenError::FullmoveNumber(excerpt(full)))?,
            ),
            _ => (0, 1),
        };
        let pos = Position {
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
        };
        check_legality(&pos)?;
        Ok(pos)
    }

    /// The position as a six-field FEN.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match Square::from_coords(file, rank).and_then(|sq| self.board.piece_at(sq)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let ep = self.ep_square.map_or("-".to_string(), |sq| sq.to_string());
        format!(
            "{fen} {} {} {ep} {} {}",
            self.turn.char(),
            self.castling.to_fen(),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

fn parse_placement(text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "expected 8 ranks separated by `/`, found {}",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let rank_name = rank + 1;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                if let Some(sq) = Square::from_coords(file, rank) {
                    board.put(sq, piece);
                }
                file += 1;
            } else {
                return Err(FenError::Placement(format!(
                    "unexpected character `{c}` in rank {rank_name}"
                )));
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {rank_name} has more than 8 squares"
                )));
            }
        }
        if file < 8 {
            return Err(FenError::Placement(format!(
                "rank {rank_name} has only {file} squares"
            )));
        }
    }
    Ok(board)
}

fn parse_castling(text: &str, board: &Board) -> Result<CastlingRights, FenError> {
    if text == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in text.chars() {
        let (color, side) = match c {
            'K' => (Color::White, CastlingSide::KingSide),
            'Q' => (Color::White, CastlingSide::QueenSide),
            'k' => (Color::Black, CastlingSide::KingSide),
            'q' => (Color::Black, CastlingSide::QueenSide),
            _ => {
                return Err(FenError::Castling(format!(
                    "unexpected character `{c}` (use a subset of `KQkq`, or `-`)"
                )))
            }
        };
        if rights.has(color, side) {
            return Err(FenError::Castling(format!("`{c}` appears twice")));
        }
        let path = super::castling::path(color, side);
        let in_place = board.piece_at(path.king_from) == Some(Piece::new(color, Role::King))
            && board.piece_at(path.rook_from) == Some(Piece::new(color, Role::Rook));
        if !in_place {
            return Err(FenError::Castling(format!(
                "`{c}` needs the king on {} and a rook on {}",
                path.king_from, path.rook_from
            )));
        }
        rights = rights.with(color, side);
    }
    Ok(rights)
}

fn parse_en_passant(text: &str, board: &Board, turn: Color) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq = Square::parse(text)
        .ok_or_else(|| FenError::EnPassant(format!("`{}` is not a square", excerpt(text))))?;
    // The opponent's pawn just stepped from `start` over `sq` to `landed`.
    let (rank, step) = match turn {
        Color::White => (5, -1),
        Color::Black => (2, 1),
    };
    let landed = sq.offset(0, step);
    let start = sq.offset(0, -step);
    let consistent = sq.rank() == rank
        && board.piece_at(sq).is_none()
        && start.is_some_and(|s| board.piece_at(s).is_none())
        && landed.and_then(|s| board.piece_at(s)) == Some(Piece::new(!turn, Role::Pawn));
    if consistent {
        Ok(Some(sq))
    } else {
        Err(FenError::EnPassant(format!(
            "{sq} does not follow a double step of a {} pawn",
            if turn == Color::White {
                "black"
            } else {
                "white"
            }
        )))
    }
}

/// One king each, at most 16 pieces and 8 pawns a side, no pawn on a back rank, and the
/// side that just moved not in check.
fn check_legality(pos: &Position) -> Result<(), FenError> {
    let board = &pos.board;
    let illegal = |reason: String| Err(FenError::IllegalPosition(reason));
    for color in Color::ALL {
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        let kings = board.count(color, Role::King);
        if kings != 1 {
            return illegal(format!("{name} has {kings} kings"));
        }
        if board.by_color(color).count() > 16 || board.count(color, Role::Pawn) > 8 {
            return illegal(format!("{name} has more pieces than a game allows"));
        }
    }
    let back_ranks = super::bitboard::Bitboard::rank(0) | super::bitboard::Bitboard::rank(7);
    if (board.by_role(Role::Pawn) & back_ranks).non_empty() {
        return illegal("a pawn stands on the first or last rank".to_string());
    }
    let waiting = !pos.turn;
    if let Some(king) = board.king_of(waiting) {
        if board
            .attackers(king, pos.turn, board.occupied())
            .non_empty()
        {
            return illegal("the side not to move is in check".to_string());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn round_trips() {
        assert_eq!(Position::from_fen(START), Ok(Position::startpos()));
        assert_eq!(Position::startpos().to_fen(), START);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 120",
        ] {
            assert_eq!(
                Position::from_fen(fen).map(|p| p.to_fen()),
                Ok(fen.to_string())
            );
        }
        let short = Position::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!(short.to_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    fn error(fen: &str) -> FenError {
        Position::from_fen(fen).expect_err(fen)
    }

    #[test]
    fn each_bad_field_is_named() {
        assert_eq!(error(""), FenError::FieldCount(0));
        assert_eq!(error("8/8/8/8/8/8/8/K6k w - - 0"), FenError::FieldCount(5));
        assert!(matches!(
            error("8/8/8/8/8/8/K6k w - - 0 1"),
            FenError::Placement(_)
        ));
        assert!(matches!(
            error("8/8/8/8/8/8/8/K5k w - - 0 1"),
            FenError::Placement(_)
        ));
        assert!(matches!(
            error("8/8/8/8/8/8/8/K7k w - - 0 1"),
            FenError::Placement(_)
        ));
        assert!(matches!(
            error("8/8/8/8/8/8/8/K6x w - - 0 1"),
            FenError::Placement(_)
        ));
        assert!(matches!(
            error("8/8/8/8/8/8/8/K0k6 w - - 0 1"),
            FenError::Placement(_)
        ));
        assert_eq!(
            error("8/8/8/8/8/8/8/K6k W - - 0 1"),
            FenError::SideToMove("W".into())
        );
        assert!(matches!(
            error("8/8/8/8/8/8/8/K6k w K - 0 1"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            error(&START.replace("KQkq", "KKkq")),
            FenError::Castling(_)
        ));
        assert!(matches!(
            error(&START.replace("KQkq", "KQkx")),
            FenError::Castling(_)
        ));
        assert!(matches!(
            error(&START.replace(" - ", " e3 ")),
            FenError::EnPassant(_)
        ));
        assert!(matches!(
            error(&START.replace(" - ", " z9 ")),
            FenError::EnPassant(_)
        ));
        assert_eq!(
            error(&START.replace(" 0 1", " -1 1")),
            FenError::HalfmoveClock("-1".into())
        );
        assert_eq!(
            error(&START.replace(" 0 1", " 0 0")),
            FenError::FullmoveNumber("0".into())
        );
        assert!(error("8/8/8/8/8/8/8/K7 w - - 0 1")
            .to_string()
            .contains("Black has 0 kings"));
        assert!(matches!(
            error("P7/8/8/8/8/8/8/K6k w - - 0 1"),
            FenError::IllegalPosition(_)
        ));
        // Black, not to move, is in check from the rook.
        assert!(matches!(
            error("7k/8/8/8/8/8/8/K6R w - - 0 1"),
            FenError::IllegalPosition(_)
        ));
        assert!(error("8/8/8/8/8/8/8/K6k w - - 0 x")
            .to_string()
            .starts_with("fullmove number (field 6)"));
    }

    #[test]
    fn garbage_never_panics() {
        let mut rng = crate::rng::Rng::new(11);
        let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqa3e6 09é".chars().collect();
        for _ in 0..5000 {
            let len = rng.below(70);
            let text: String = (0..len)
                .map(|_| *rng.pick(&alphabet).unwrap_or(&' '))
                .collect();
            if let Ok(pos) = Position::from_fen(&text) {
                let _ = pos.legal_moves();
            }
        }
    }
}
