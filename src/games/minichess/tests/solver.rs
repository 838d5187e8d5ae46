use super::board;
use crate::games::minichess::{Board, Color, SolveError, Solver, Value};
use crate::rng::Rng;

/// Plain minimax over the public rules, without table, symmetry or ordering: the reference
/// the solver is checked against.
fn brute_force_wins(board: &Board, to_move: Color) -> bool {
    if let Some(win) = board.outcome(to_move) {
        return win.winner == to_move;
    }
    board
        .successors(to_move)
        .iter()
        .any(|next| !brute_force_wins(next, to_move.opponent()))
}

fn solve_value(board: &Board, to_move: Color) -> Value {
    Solver::new().solve(board, to_move).unwrap().value
}

/// A position reached by `plies` random moves from the start, with the side to move, or
/// `None` when the game ended on the way.
fn random_position(size: usize, plies: usize, rng: &mut Rng) -> Option<(Board, Color)> {
    let mut board = Board::start(size).unwrap();
    let mut side = Color::White;
    for _ in 0..plies {
        if board.outcome(side).is_some() {
            return None;
        }
        board = *rng.pick(&board.successors(side))?;
        side = side.opponent();
    }
    Some((board, side))
}

#[test]
fn three_by_three_is_a_win_for_black() {
    let start = Board::start(3).unwrap();
    let mut solver = Solver::new();
    let solution = solver.solve(&start, Color::White).unwrap();
    assert_eq!(solution.value, Value::Loss);
    assert!(solution.best.is_some());
    assert!(!brute_force_wins(&start, Color::White));
    let stats = solver.stats();
    assert!(stats.positions > 0 && stats.table_entries > 0 && stats.table_bytes > 0);
}

#[test]
fn four_by_four_is_a_win_for_white() {
    let start = Board::start(4).unwrap();
    let solution = Solver::new().solve(&start, Color::White).unwrap();
    assert_eq!(solution.value, Value::Win);
    let best = solution.best.expect("a winning move");
    let after = start.apply(&best).unwrap();
    assert_eq!(solve_value(&after, Color::Black), Value::Loss);
}

#[test]
fn five_by_five_value_from_the_start() {
    let start = Board::start(5).unwrap();
    let solution = Solver::new().solve(&start, Color::White).unwrap();
    assert_eq!(solution.value, FIVE_BY_FIVE);
}

/// The value of the 5 x 5 start for White, as measured by the solver and the bench.
const FIVE_BY_FIVE: Value = Value::Win;

#[test]
fn agrees_with_brute_force_on_random_positions() {
    let mut rng = Rng::new(2024);
    let mut checked = 0;
    for round in 0..400 {
        let size = 3 + round % 2;
        let plies = rng.below(2 * size + 1);
        let Some((position, side)) = random_position(size, plies, &mut rng) else {
            continue;
        };
        let expected = brute_force_wins(&position, side);
        let solution = Solver::new().solve(&position, side).unwrap();
        assert_eq!(
            solution.value == Value::Win,
            expected,
            "{side} to move on\n{position}"
        );
        if let (Value::Win, Some(best)) = (solution.value, solution.best) {
            let next = position.apply(&best).unwrap();
            assert!(!brute_force_wins(&next, side.opponent()), "best move loses");
        }
        checked += 1;
    }
    assert!(checked > 300, "only {checked} positions checked");
}

#[test]
fn one_solver_answers_many_positions_consistently() {
    // The table is shared between calls and between the two sides to move.
    let mut shared = Solver::new();
    let mut rng = Rng::new(99);
    for _ in 0..200 {
        if let Some((position, side)) = random_position(4, rng.below(8), &mut rng) {
            let value = shared.solve(&position, side).unwrap().value;
            assert_eq!(
                value,
                solve_value(&position, side),
                "{side} to move on\n{position}"
            );
        }
    }
}

#[test]
fn mirror_and_color_swap_keep_the_value() {
    let position = board(&[[1, 0, 1, 0], [0, 1, 0, 0], [2, 0, 0, 2], [0, 2, 2, 0]]);
    let mirrored: Vec<Vec<u8>> = position
        .to_rows()
        .into_iter()
        .map(|row| row.into_iter().rev().collect())
        .collect();
    let swapped: Vec<Vec<u8>> = position
        .to_rows()
        .into_iter()
        .rev()
        .map(|row| row.into_iter().map(|c| [0, 2, 1][c as usize]).collect())
        .collect();
    for side in [Color::White, Color::Black] {
        let value = solve_value(&position, side);
        assert_eq!(value, solve_value(&board(&mirrored), side));
        assert_eq!(value, solve_value(&board(&swapped), side.opponent()));
        assert_eq!(value == Value::Win, brute_force_wins(&position, side));
    }
}

#[test]
fn finished_positions_are_valued_without_a_move() {
    let white_won = board(&[[0, 0, 0], [0, 0, 2], [1, 0, 2]]);
    let solution = Solver::new().solve(&white_won, Color::Black).unwrap();
    assert_eq!(solution.value, Value::Loss);
    assert_eq!(solution.best, None);
    let stuck = board(&[[0, 0, 0], [1, 0, 1], [2, 0, 2]]);
    assert_eq!(solve_value(&stuck, Color::Black), Value::Loss);
}

#[test]
fn a_budget_stops_a_search_that_is_too_large() {
    let mut solver = Solver::with_budget(1_000);
    let start = Board::start(8).unwrap();
    assert_eq!(
        solver.solve(&start, Color::White),
        Err(SolveError::BudgetExhausted { budget: 1_000 })
    );
    // Small positions still fit within the same budget.
    assert_eq!(
        solver
            .solve(&Board::start(3).unwrap(), Color::White)
            .unwrap()
            .value,
        Value::Loss
    );
}
