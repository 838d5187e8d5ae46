//! The reference `move_chooser`: given only the boards one move away and the mover's color,
//! as the handout's function is, pick the strongest.
//!
//! A board that wins at once comes first, then one the solver proves lost for the opponent
//! (perfect play wherever the solver settles within its budget), then the best by an
//! alpha-beta search from the opponent's side. Ties go to the earliest board in the list.

use super::alphabeta::best_move;
use super::board::{Board, Color};
use super::solver::{Solver, Value};

/// Positions the solver may visit for one candidate board: every position of boards up to
/// 5 x 5 fits, larger ones fall back to the search.
const BUDGET: u64 = 300_000;
/// Depth of the fallback search, in plies after the candidate board.
const DEPTH: u32 = 4;

/// Chooses among candidate boards; keeps the solver's table between calls.
#[derive(Debug)]
pub struct ReferenceChooser {
    solver: Solver,
}

impl Default for ReferenceChooser {
    fn default() -> Self {
        ReferenceChooser {
            solver: Solver::with_budget(BUDGET),
        }
    }
}

impl ReferenceChooser {
    /// The index of the board `color` should play among `boards` (`None` if there are none).
    pub fn choose(&mut self, boards: &[Board], color: Color) -> Option<usize> {
        let opponent = color.opponent();
        if let Some(index) = boards
            .iter()
            .position(|b| b.winner_after_move(color) == Some(color))
        {
            return Some(index);
        }
        if let Some(index) = boards.iter().position(|b| self.is_lost_for(b, opponent)) {
            return Some(index);
        }
        let score = |board: &Board| match board.outcome(opponent) {
            Some(win) if win.winner == color => i32::MAX,
            Some(_) => i32::MIN,
            None => best_move(board, opponent, DEPTH).map_or(i32::MAX, |(_, s)| -s),
        };
        let mut best: Option<(usize, i32)> = None;
        for (index, board) in boards.iter().enumerate() {
            let s = score(board);
            if best.is_none_or(|(_, top)| s > top) {
                best = Some((index, s));
            }
        }
        best.map(|(index, _)| index)
    }

    fn is_lost_for(&mut self, board: &Board, to_move: Color) -> bool {
        match self.solver.solve(board, to_move) {
            Ok(solution) => solution.value == Value::Loss,
            Err(_) => {
                // Keep memory bounded: a board too large to solve starts the table afresh.
                self.solver.clear();
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board<R: AsRef<[u8]>>(rows: &[R]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn takes_an_immediate_win() {
        let start = board(&[[0, 1, 0], [0, 0, 1], [2, 2, 0]]);
        let boards = start.successors(Color::White);
        let chosen = ReferenceChooser::default().choose(&boards, Color::White);
        let after = boards[chosen.unwrap()];
        assert_eq!(after.winner_after_move(Color::White), Some(Color::White));
    }

    #[test]
    fn picks_a_move_the_solver_proves_winning() {
        // The handout's example: black to move has three moves; capturing with the middle
        // pawn is the handout's choice, and a winning one.
        let start = board(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]);
        let boards = start.successors(Color::Black);
        let index = ReferenceChooser::default()
            .choose(&boards, Color::Black)
            .unwrap();
        let mut solver = Solver::new();
        assert_eq!(
            solver.solve(&boards[index], Color::White).unwrap().value,
            Value::Loss
        );
        assert_eq!(boards[index], board(&[[0, 1, 1], [2, 0, 0], [2, 0, 2]]));
    }

    #[test]
    fn large_boards_fall_back_to_search() {
        let start = Board::start(8).unwrap();
        let boards = start.successors(Color::White);
        let index = ReferenceChooser::default().choose(&boards, Color::White);
        assert!(index.is_some_and(|i| i < boards.len()));
        assert_eq!(ReferenceChooser::default().choose(&[], Color::White), None);
    }
}
