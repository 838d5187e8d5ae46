//! The chess engine and the `ecs198f` reference (`ChessLogic`) checked against shakmaty, an
//! independent, widely used chess library, over random games.
//!
//! Perft tables check move counts from a few dozen fixed positions; these properties check
//! everything else a grading run relies on, at every ply of games that proptest plays at
//! random from the start position, from every position of the perft suite and from random
//! sparse endgames: the legal moves themselves, check, checkmate and stalemate, the position
//! after each move (as FEN, clocks and en passant square included), insufficient material,
//! the fifty-move count and repetitions. `ChessLogic` is driven by the move strings a
//! student's program would send, legal and illegal, and must accept exactly the moves
//! shakmaty calls legal, with its optional draw rules where they coincide with shakmaty's
//! (insufficient material) or with counts made from shakmaty's positions (fifty moves,
//! threefold repetition).
//!
//! A disagreement is shrunk by proptest to a short game; once the engine is fixed, that game
//! becomes a plain test in this file.

use boardgrade::games::chess::epd::{parse_suite, STANDARD_SUITE};
use boardgrade::games::chess::{ChessLogic, ChessOptions, DrawReason, Outcome, Position};
use boardgrade::games::chess::{Color, Repetitions};
use proptest::prelude::*;
use proptest::sample::Index;
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, CastlingSide, EnPassantMode, Position as _};
use std::sync::OnceLock;

/// Plies per game at most: long enough for promotions and bare kings in random play.
const MAX_PLIES: usize = 200;

/// Games per property. Each game is checked in full at every ply, with shakmaty's move
/// generation beside ours; the whole file runs in a few seconds in a debug build.
const GAMES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: GAMES,
        // A failure is kept as a plain test in this file, not in a regressions file.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The start position and every position of the bundled perft suite (castling, en passant,
/// promotion and pin positions), as FEN.
fn suite() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(|| {
        let suite = parse_suite(STANDARD_SUITE).expect("the bundled perft suite parses");
        std::iter::once(Position::startpos())
            .chain(suite.into_iter().map(|case| case.position))
            .map(|position| position.to_fen())
            .collect()
    })
}

/// A random sparse position: two kings and up to eight other pieces on random squares
/// (pawns off the back ranks), either side to move, the half-move clock anywhere below the
/// fifty-move limit: endgames, where bare kings, promotions, stalemates and repetitions
/// come within a few random moves.
fn sparse_fen() -> impl Strategy<Value = String> {
    let piece = (0usize..10, any::<Index>());
    (
        any::<Index>(),
        any::<Index>(),
        prop::collection::vec(piece, 0..=8),
        any::<bool>(),
        0u32..100,
    )
        .prop_map(|(white_king, black_king, pieces, white, clock)| {
            let mut board = [None; 64];
            for (kind, square) in pieces {
                let letter = b"PNBRQpnbrq"[kind] as char;
                let at = if letter.eq_ignore_ascii_case(&'p') {
                    8 + square.index(48)
                } else {
                    square.index(64)
                };
                board[at] = Some(letter);
            }
            let white_king = white_king.index(64);
            let black_king = (white_king + 1 + black_king.index(63)) % 64;
            board[white_king] = Some('K');
            board[black_king] = Some('k');
            let rows: Vec<String> = (0..8)
                .rev()
                .map(|rank| {
                    let mut row = String::new();
                    let mut empty = 0;
                    for file in 0..8 {
                        match board[rank * 8 + file] {
                            Some(letter) => {
                                if empty > 0 {
                                    row.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                row.push(letter);
                            }
                            None => empty += 1,
                        }
                    }
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                    }
                    row
                })
                .collect();
            let side = if white { 'w' } else { 'b' };
            format!("{} {side} - - {clock} 40", rows.join("/"))
        })
}

/// Where a game starts: a position of the perft suite or a random sparse one.
fn start() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<Index>().prop_map(|i| suite()[i.index(suite().len())].clone()),
        sparse_fen(),
    ]
}

/// The position as both engines read it. A position shakmaty refuses (a king in check on
/// the side not to move, kings side by side) is not a game's; one it accepts, ours must.
fn read_both(fen: &str) -> Result<(Position, shakmaty::Chess), TestCaseError> {
    let theirs = fen
        .parse::<Fen>()
        .map_err(|e| TestCaseError::reject(e.to_string()))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| TestCaseError::reject(e.to_string()))?;
    let ours = Position::from_fen(fen)
        .map_err(|e| TestCaseError::fail(format!("shakmaty reads {fen} but we do not: {e}")))?;
    Ok((ours, theirs))
}

fn their_fen(theirs: &shakmaty::Chess) -> String {
    Fen::from_position(theirs.clone(), EnPassantMode::Always).to_string()
}

fn sorted_uci(moves: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut moves: Vec<String> = moves.into_iter().collect();
    moves.sort();
    moves
}

fn their_uci(m: &shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The position key repetition counts by: placement, side, castling rights and an en
/// passant square only where the capture is legal (FIDE's rule, shakmaty's `Legal` mode).
fn their_key(theirs: &shakmaty::Chess) -> u64 {
    let hash: Zobrist64 = theirs.zobrist_hash(EnPassantMode::Legal);
    hash.0
}

/// The ecs198f extended notation of a move, written from shakmaty's description of it.
fn extended(m: &shakmaty::Move) -> String {
    match m.castling_side() {
        Some(CastlingSide::KingSide) => return "0-0".to_string(),
        Some(CastlingSide::QueenSide) => return "0-0-0".to_string(),
        None => {}
    }
    let mut text = String::new();
    if m.role() != shakmaty::Role::Pawn {
        text.push(m.role().char());
    }
    if let Some(from) = m.from() {
        text.push_str(&from.to_string());
    }
    if m.is_capture() {
        text.push('x');
    }
    text.push_str(&m.to().to_string());
    if let Some(role) = m.promotion() {
        text.push('=');
        text.push(role.upper_char());
    }
    text
}

/// Everything the engine says about one position, against shakmaty. `history` holds
/// shakmaty's repetition keys since the last capture or pawn move, this position's last.
fn same_position(
    ours: &Position,
    theirs: &shakmaty::Chess,
    repetitions: &Repetitions,
    history: &[u64],
) -> Result<(), TestCaseError> {
    let fen = their_fen(theirs);
    prop_assert_eq!(ours.to_fen(), fen.clone());
    prop_assert_eq!(
        sorted_uci(ours.legal_moves().iter().map(|m| m.uci())),
        sorted_uci(theirs.legal_moves().iter().map(their_uci)),
        "legal moves in {}",
        fen
    );
    prop_assert_eq!(ours.count_legal_moves(), theirs.legal_moves().len() as u64);
    prop_assert_eq!(ours.is_check(), theirs.is_check(), "check in {}", fen);
    let expected = if theirs.is_checkmate() {
        Some(Outcome::Checkmate {
            winner: if theirs.turn() == shakmaty::Color::White {
                Color::Black
            } else {
                Color::White
            },
        })
    } else if theirs.is_stalemate() {
        Some(Outcome::Draw(DrawReason::Stalemate))
    } else {
        None
    };
    prop_assert_eq!(ours.outcome(), expected, "outcome in {}", fen);
    prop_assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "insufficient material in {}",
        fen
    );
    prop_assert_eq!(ours.is_fifty_move_draw(), theirs.halfmoves() >= 100);
    let current = history.last().copied();
    let count = history.iter().filter(|k| Some(**k) == current).count();
    prop_assert_eq!(repetitions.current_count(), count, "repetitions of {}", fen);
    Ok(())
}

/// The outcome `ChessLogic` with draw rules must report in a position where shakmaty's
/// rules and the counts say so: checkmate and stalemate first, then the draw rules in the
/// order the reference documents.
fn expected_with_draw_rules(
    ours: &Position,
    theirs: &shakmaty::Chess,
    history: &[u64],
) -> Option<Outcome> {
    ours.outcome().or_else(|| {
        let current = history.last().copied();
        let repeated = history.iter().filter(|k| Some(**k) == current).count() >= 3;
        if theirs.is_insufficient_material() {
            Some(Outcome::Draw(DrawReason::InsufficientMaterial))
        } else if theirs.halfmoves() >= 100 {
            Some(Outcome::Draw(DrawReason::FiftyMoves))
        } else if repeated {
            Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
        } else {
            None
        }
    })
}

/// One step of a game: a legal move chosen by index, or any from/to square pair as a
/// student's program might send it.
#[derive(Clone, Debug)]
enum Step {
    Legal(Index),
    Squares(Index, Index),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => any::<Index>().prop_map(Step::Legal),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(from, to)| Step::Squares(from, to)),
    ]
}

fn square_name(index: &Index) -> String {
    let i = index.index(64);
    let file = char::from(b'a' + (i % 8) as u8);
    let rank = char::from(b'1' + (i / 8) as u8);
    format!("{file}{rank}")
}

proptest! {
    #![proptest_config(config())]

    /// Random legal games: at every ply the legal moves, check, mate, stalemate, the
    /// position reached, insufficient material, the fifty-move count and repetitions agree.
    #[test]
    fn random_games_agree(
        fen in start(),
        choices in prop::collection::vec(any::<Index>(), 0..MAX_PLIES),
    ) {
        let (mut ours, mut theirs) = read_both(&fen)?;
        let mut repetitions = Repetitions::new(&ours);
        let mut history = vec![their_key(&theirs)];
        same_position(&ours, &theirs, &repetitions, &history)?;
        for choice in &choices {
            let legal = theirs.legal_moves();
            if legal.is_empty() {
                break;
            }
            let theirs_move = &legal[choice.index(legal.len())];
            let uci = their_uci(theirs_move);
            let ours_move = ours.parse_uci(&uci);
            prop_assert!(ours_move.is_some(), "{} is not legal in {}", uci, ours.to_fen());
            if let Some(m) = ours_move {
                prop_assert_eq!(m.is_capture(), theirs_move.is_capture(), "{}", uci);
                prop_assert_eq!(m.is_en_passant(), theirs_move.is_en_passant(), "{}", uci);
                ours.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            theirs.play_unchecked(theirs_move);
            repetitions.record(&ours);
            if theirs.halfmoves() == 0 {
                history.clear();
            }
            history.push(their_key(&theirs));
            same_position(&ours, &theirs, &repetitions, &history)?;
        }
    }

    /// `ChessLogic` fed move strings, legal and not: it accepts exactly the moves shakmaty
    /// calls legal (promotions to a queen), answers with the extended notation of the move
    /// played, refuses everything once the game is over, and ends the game as shakmaty's
    /// rules say; with draw rules on, also on insufficient material, fifty moves and a
    /// threefold repetition.
    #[test]
    fn the_reference_accepts_exactly_legal_moves(
        fen in start(),
        steps in prop::collection::vec(step(), 0..MAX_PLIES),
    ) {
        let (position, mut theirs) = read_both(&fen)?;
        let mut plain = ChessLogic::from_position(position, ChessOptions::default());
        let with_draws = ChessOptions { draw_rules: true, ..ChessOptions::default() };
        // Dropped once its game is over (and shown to refuse a move then).
        let mut drawn = Some(ChessLogic::from_position(position, with_draws));
        let mut history = vec![their_key(&theirs)];
        prop_assert_eq!(
            drawn.as_ref().and_then(ChessLogic::outcome),
            expected_with_draw_rules(&position, &theirs, &history),
            "outcome with draw rules in {}",
            fen
        );
        for step in &steps {
            let legal = theirs.legal_moves();
            let (text, played) = match step {
                Step::Legal(choice) => {
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[choice.index(legal.len())].clone();
                    // The dialect has no promotion suffix: a pawn always becomes a queen.
                    let m = match m {
                        shakmaty::Move::Normal { role, from, capture, to, promotion: Some(_) } => {
                            shakmaty::Move::Normal {
                                role, from, capture, to, promotion: Some(shakmaty::Role::Queen)
                            }
                        }
                        other => other,
                    };
                    let text = their_uci(&m).chars().take(4).collect::<String>();
                    (text, Some(m))
                }
                Step::Squares(from, to) => {
                    let text = format!("{}{}", square_name(from), square_name(to));
                    let played = legal.iter().find(|m| {
                        their_uci(m).starts_with(&text)
                            && m.promotion().is_none_or(|r| r == shakmaty::Role::Queen)
                    });
                    (text, played.cloned())
                }
            };
            let answer = plain.play_move(&text);
            let expected = played.as_ref().map(extended).unwrap_or_default();
            prop_assert_eq!(
                &answer,
                &expected,
                "{} in {} (game from {})",
                text,
                their_fen(&theirs),
                fen
            );
            if let Some(logic) = drawn.as_mut() {
                let over = logic.outcome().is_some();
                let reply = logic.play_move(&text);
                if over {
                    prop_assert_eq!(reply, "", "{} after the game ended in {}", text, logic.fen());
                    drawn = None;
                } else {
                    prop_assert_eq!(reply, answer.clone());
                }
            }
            let Some(m) = played else { continue };
            theirs.play_unchecked(&m);
            if theirs.halfmoves() == 0 {
                history.clear();
            }
            history.push(their_key(&theirs));
            prop_assert_eq!(plain.fen(), their_fen(&theirs));
            prop_assert_eq!(plain.outcome(), plain.position().outcome());
            let result = match theirs.outcome() {
                Some(shakmaty::Outcome::Decisive { winner: shakmaty::Color::White }) => "w",
                Some(shakmaty::Outcome::Decisive { winner: shakmaty::Color::Black }) => "b",
                _ if theirs.is_stalemate() => "d",
                _ => "",
            };
            prop_assert_eq!(plain.result(), result, "result in {}", plain.fen());
            if let Some(logic) = drawn.as_ref() {
                prop_assert_eq!(
                    logic.outcome(),
                    expected_with_draw_rules(logic.position(), &theirs, &history),
                    "outcome with draw rules in {}",
                    logic.fen()
                );
            }
        }
    }
}
