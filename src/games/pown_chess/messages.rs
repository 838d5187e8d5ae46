//! Every line the program prints outside the board, spelled exactly as seed 002 shows it.
//! None of them ends with a newline; the program adds one after each (but not after the prompt).

use super::board::MoveOutcome;
use super::square::Color;

/// Printed for any refused move, whatever the reason.
pub const INVALID_MOVE: &str = "INVALID MOVE";
/// The last line of every finished game.
pub const GAME_OVER: &str = "GAME OVER";
/// The result when both players have as many powns.
pub const TIE: &str = "It's a tie!!";

/// `w move: ` (the text of `input('w move: ')`, no newline).
pub fn prompt(color: Color) -> String {
    format!("{color} move: ")
}

/// `w moves from B1 to B2` (no `!`; see [`super::lenient_alternatives`]).
pub fn move_line(outcome: &MoveOutcome) -> String {
    format!(
        "{} moves from {} to {}",
        outcome.color, outcome.from, outcome.to
    )
}

/// `b powns a w`: `mover` took one of the opponent's powns.
pub fn powns_line(mover: Color) -> String {
    format!("{mover} powns a {}", mover.opponent())
}

/// Whether `line` is a capture line of either colour (`w powns a b`, `b powns a b`), however
/// wrong its colours.
pub fn is_powns_line(line: &str) -> bool {
    let colour = |word: &str| matches!(word, "w" | "b");
    line.trim()
        .split_once(" powns a ")
        .is_some_and(|(mover, taken)| colour(mover) && colour(taken))
}

/// `There are no more moves for w`.
pub fn no_more_moves(stuck: Color) -> String {
    format!("There are no more moves for {stuck}")
}

/// `b has 3 pieces` (always "pieces", also for 1 and 0).
pub fn pieces_line(color: Color, count: usize) -> String {
    format!("{color} has {count} pieces")
}

/// `b wins!!`.
pub fn wins_line(winner: Color) -> String {
    format!("{winner} wins!!")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pown_chess::Square;

    #[test]
    fn lines_match_the_handout() {
        let outcome = MoveOutcome {
            color: Color::White,
            from: Square::parse("B1").unwrap(),
            to: Square::parse("B2").unwrap(),
            captured: false,
        };
        assert_eq!(move_line(&outcome), "w moves from B1 to B2");
        assert_eq!(prompt(Color::Black), "b move: ");
        assert_eq!(powns_line(Color::Black), "b powns a w");
        for line in ["b powns a w", "w powns a w", "  w powns a b "] {
            assert!(is_powns_line(line), "{line:?}");
        }
        for line in [
            "b powns a ",
            "b powns a wb",
            "x powns a w",
            "b moves from C4 to C3",
        ] {
            assert!(!is_powns_line(line), "{line:?}");
        }
        assert_eq!(no_more_moves(Color::White), "There are no more moves for w");
        assert_eq!(pieces_line(Color::Black, 3), "b has 3 pieces");
        assert_eq!(pieces_line(Color::White, 1), "w has 1 pieces");
        assert_eq!(wins_line(Color::Black), "b wins!!");
    }
}
