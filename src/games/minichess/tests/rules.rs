use super::{board, move_list};
use crate::games::minichess::{Board, Color, Status, Win, WinReason};

#[test]
fn handout_example_black_moves_in_documented_order() {
    let start = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
    let rows: Vec<Vec<Vec<u8>>> = start
        .successors(Color::Black)
        .iter()
        .map(Board::to_rows)
        .collect();
    assert_eq!(
        rows,
        vec![
            vec![vec![0, 1, 1], vec![2, 0, 0], vec![2, 0, 2]],
            vec![vec![0, 1, 1], vec![1, 2, 0], vec![2, 0, 2]],
            vec![vec![0, 1, 1], vec![1, 0, 2], vec![2, 2, 0]],
        ]
    );
    assert_eq!(
        start.to_rows(),
        vec![vec![0, 1, 1], vec![1, 0, 0], vec![2, 2, 2]]
    );
}

#[test]
fn handout_example_white_moves() {
    let start = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
    assert_eq!(
        move_list(&start, Color::White),
        vec![
            ((0, 1), (1, 1), false),
            ((0, 2), (1, 2), false),
            ((1, 0), (2, 1), true),
        ]
    );
}

#[test]
fn start_positions_have_one_step_per_pawn() {
    for size in 3..=8 {
        let start = Board::start(size).unwrap();
        for color in [Color::White, Color::Black] {
            let moves = start.moves(color);
            assert_eq!(moves.len(), size);
            assert!(moves.iter().all(|mv| !mv.is_capture()));
        }
    }
}

#[test]
fn captures_on_both_edges_never_wrap_around() {
    // On 8 x 8 a row is exactly one byte, so a missing edge check would wrap a capture
    // from column 0 to column 7 of the same row, or from column 7 to column 0 two rows on.
    let mut rows = vec![vec![0u8; 8]; 8];
    rows[2][7] = 1; // white on the right edge
    rows[3][0] = 1; // white on the left edge
    rows[3][6] = 2; // capturable by (2,7)
    rows[3][7] = 2; // same row as (3,0) minus one square: a wrapped target
    rows[4][0] = 2; // two rows past (2,7) plus one: a wrapped target; blocks (3,0)
    rows[4][1] = 2; // capturable by (3,0)
    let edges = board(&rows);
    assert_eq!(
        move_list(&edges, Color::White),
        vec![((2, 7), (3, 6), true), ((3, 0), (4, 1), true)]
    );
    // Black moving up: (3,7) must not wrap onto (3,0), nor (4,0) onto (2,7).
    assert_eq!(
        move_list(&edges, Color::Black),
        vec![
            ((3, 6), (2, 6), false),
            ((3, 6), (2, 7), true),
            ((4, 1), (3, 0), true),
            ((4, 1), (3, 1), false),
        ]
    );
}

#[test]
fn edge_captures_on_a_small_board() {
    let small = board(&[[0, 0, 0, 0], [1, 0, 0, 1], [0, 2, 2, 0], [0, 0, 0, 0]]);
    assert_eq!(
        move_list(&small, Color::White),
        vec![
            ((1, 0), (2, 0), false),
            ((1, 0), (2, 1), true),
            ((1, 3), (2, 2), true),
            ((1, 3), (2, 3), false),
        ]
    );
    assert_eq!(
        move_list(&small, Color::Black),
        vec![
            ((2, 1), (1, 0), true),
            ((2, 1), (1, 1), false),
            ((2, 2), (1, 2), false),
            ((2, 2), (1, 3), true),
        ]
    );
}

#[test]
fn blocked_pawns_have_no_moves() {
    let blocked = board(&[[0, 0, 0], [1, 0, 1], [2, 0, 2]]);
    assert!(blocked.moves(Color::White).is_empty());
    assert!(blocked.moves(Color::Black).is_empty());
    assert!(!blocked.has_move(Color::White));
    assert_eq!(
        blocked.outcome(Color::White),
        Some(Win {
            winner: Color::Black,
            reason: WinReason::NoMoveLeft
        })
    );
    assert_eq!(blocked.status(Color::Black), Status::Won(Color::White));
}

#[test]
fn apply_plays_legal_moves_and_rejects_others() {
    let start = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
    let capture = start.moves(Color::White)[2];
    let after = start.apply(&capture).unwrap();
    assert_eq!(
        after.to_rows(),
        vec![vec![0, 1, 1], vec![0, 0, 0], vec![2, 1, 2]]
    );
    // The same move is no longer legal on the new board, nor on a fresh one.
    assert!(after.apply(&capture).is_err());
    let err = Board::start(3).unwrap().apply(&capture).unwrap_err();
    assert!(err.to_string().contains("(1,0)x(2,1)"), "{err}");
    // A move of a larger board cannot be forced onto a smaller one.
    let big = Board::start(8).unwrap();
    let far = *big.moves(Color::White).last().unwrap();
    assert!(Board::start(3).unwrap().apply(&far).is_err());
}

#[test]
fn move_to_recovers_the_move_behind_a_board() {
    let start = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
    for (mv, next) in start
        .moves(Color::Black)
        .iter()
        .zip(start.successors(Color::Black))
    {
        assert_eq!(start.move_to(Color::Black, &next), Some(*mv));
    }
    assert_eq!(start.move_to(Color::Black, &start), None);
    let white_next = start.successors(Color::White)[0];
    assert_eq!(start.move_to(Color::Black, &white_next), None);
}

#[test]
fn reaching_the_far_row_wins() {
    let white_in = board(&[[0, 0, 0], [0, 0, 2], [1, 0, 2]]);
    assert_eq!(
        white_in.outcome(Color::Black),
        Some(Win {
            winner: Color::White,
            reason: WinReason::ReachedFarRow
        })
    );
    assert_eq!(white_in.winner_after_move(Color::White), Some(Color::White));
    let black_in = board(&[[2, 1, 0], [1, 0, 0], [0, 0, 0]]);
    assert_eq!(black_in.status(Color::White), Status::Won(Color::Black));
}

#[test]
fn losing_every_pawn_loses() {
    let no_black = board(&[[0, 0, 0], [0, 1, 0], [0, 0, 0]]);
    assert_eq!(
        no_black.outcome(Color::Black),
        Some(Win {
            winner: Color::White,
            reason: WinReason::NoPawnsLeft
        })
    );
    let no_white = board(&[[0, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]);
    assert_eq!(no_white.status(Color::White), Status::Won(Color::Black));
}

#[test]
fn ongoing_positions_have_no_winner() {
    let start = Board::start(5).unwrap();
    assert_eq!(start.status(Color::White), Status::Ongoing);
    assert_eq!(start.winner_after_move(Color::Black), None);
    let mid = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
    assert_eq!(mid.outcome(Color::Black), None);
}

#[test]
fn contradictory_boards_resolve_in_documented_order() {
    // Both sides on their far rows: the player who just moved is credited.
    let both = board(&[[2, 0, 0], [0, 0, 0], [0, 0, 1]]);
    assert_eq!(both.status(Color::White), Status::Won(Color::Black));
    assert_eq!(both.status(Color::Black), Status::Won(Color::White));
}
