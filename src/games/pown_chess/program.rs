//! The whole student program of seed 002 as a state machine: what it prints before any input
//! and after each line the player types.
//!
//! A turn starts by checking whether the player to move has a movable pown. If not, the game
//! ends (see [`end_of_game`]); otherwise the program shows the board and prints the prompt
//! `w move: ` without a newline. The player's line is answered with the move line (and
//! `b powns a w` after a capture) or `INVALID MOVE`, each on its own line, and the next turn
//! starts at once.

use super::board::{Board, InvalidMove, MoveOutcome};
use super::events::{self, Event};
use super::messages;
use super::options::{CountOrder, PownOptions};
use super::render::display_board;
use super::square::Color;
use crate::games::rule_events::EventLog;

/// The kind of case a typed line is (see [`PownProgram::case_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// A move made (whether it took), or the kind of refusal.
    made: Result<bool, std::mem::Discriminant<InvalidMove>>,
    /// The game ends after it.
    ends: bool,
    /// The next player can then move only by taking.
    only_takes: bool,
}

/// A correct pown-chess program, fed one typed line at a time.
#[derive(Debug, Clone)]
pub struct PownProgram {
    options: PownOptions,
    board: Board,
    moves_played: usize,
    finished: bool,
    /// The rule events reached, when counted.
    events: EventLog<Event>,
}

impl PownProgram {
    pub fn new(options: PownOptions) -> Self {
        PownProgram {
            options,
            board: Board::new(options.size),
            moves_played: 0,
            finished: false,
            events: EventLog::default(),
        }
    }

    pub fn options(&self) -> &PownOptions {
        &self.options
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How many moves were actually played (invalid input does not count).
    pub fn moves_played(&self) -> usize {
        self.moves_played
    }

    /// Starts counting the rule events its inputs reach.
    pub fn count_rule_events(&mut self) {
        self.events.start();
    }

    /// The names of the rule events reached since the last call.
    pub fn take_rule_events(&mut self) -> Vec<&'static str> {
        self.events.take()
    }

    /// Whether the program has printed `GAME OVER` and exited.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The output before any input: the starting board and `w move: `. Called again later it
    /// repeats the current turn's board and prompt; after the end of the game it is empty.
    pub fn opening(&mut self) -> String {
        if self.finished {
            String::new()
        } else {
            self.start_turn()
        }
    }

    /// The output after the player types `line` (without its newline) at the prompt: the
    /// answer to the move, then the next turn's board and prompt or the end of the game.
    /// Surrounding whitespace is ignored and lower-case column letters are accepted. Once the
    /// game is over the program has exited, and further lines produce nothing.
    pub fn input(&mut self, line: &str) -> String {
        if self.finished {
            return String::new();
        }
        self.play(line).1
    }

    /// The move `line` asks for, made or refused, and what the program prints for it.
    fn play(&mut self, line: &str) -> (Result<MoveOutcome, InvalidMove>, String) {
        let result = self.apply(line);
        let mut out = match &result {
            Ok(outcome) => answer_lines(outcome),
            Err(_) => format!("{}\n", messages::INVALID_MOVE),
        };
        out.push_str(&self.start_turn());
        (result, out)
    }

    /// Plays `line` as [`PownProgram::input`] does, printing nothing: for replays that need
    /// only where the game stands.
    pub fn advance(&mut self, line: &str) {
        if !self.finished {
            let _ = self.apply(line);
            self.end_if_stuck();
        }
    }

    /// What `line` does to the game: the move made, or refused (the turn passing unless the
    /// same player tries again).
    fn apply(&mut self, line: &str) -> Result<MoveOutcome, InvalidMove> {
        let result = self.try_move(self.typed(line));
        self.events.note_with(|| events::of_move(&result));
        match &result {
            Ok(_) => self.moves_played += 1,
            Err(_) if !self.options.reprompt_invalid => self.board.pass_turn(),
            Err(_) => {}
        }
        result
    }

    /// What kind of case typing `line` now is: the move made (a step or a capture) or why
    /// it is refused, whether the game then ends, and whether the next player can then only
    /// take. Two lines of one kind exercise the same rule.
    pub fn case_of(&self, line: &str) -> Case {
        let (made, after) = self.after(line);
        Case {
            made: made
                .map(|m| m.captured)
                .map_err(|e| std::mem::discriminant(&e)),
            ends: after.finished,
            only_takes: after.only_takes(),
        }
    }

    /// What typing `line` now does, and the game after it (nothing printed).
    fn after(&self, line: &str) -> (Result<MoveOutcome, InvalidMove>, PownProgram) {
        let mut after = self.clone();
        let made = after.apply(line);
        after.end_if_stuck();
        (made, after)
    }

    /// Whether the game goes on with a player to move who can move only by taking (a program
    /// that thinks a pown facing another is stuck ends the game here).
    fn only_takes(&self) -> bool {
        let me = self.board.to_move();
        !self.finished && self.board.takers(me).count() == self.board.moves_remaining(me)
    }

    /// What the program shows before anything is typed, in words: a failure at the opening
    /// (a board drawn wrong, a missing prompt) is named by it.
    pub fn opening_rule(&self) -> String {
        let size = self.options.size.get();
        let above = match (self.options.move_counter, self.options.score_header) {
            (true, _) => format!("the move counter line (`Move #1 -- w: {size} b:{size}`), then "),
            (false, true) => format!("the score line (`w: {size} b: {size}`), then "),
            (false, false) => String::new(),
        };
        format!(
            "the game opens with {above}the board: a column header, then rows 1 to {size}, \
             w's {size} powns on row 1 and b's on row {size}, every other square empty; then \
             w's prompt `w move: `"
        )
    }

    /// The rule the reference applies when the player types `line` now, in words, with what
    /// it makes of this case: a failing step's note names the rule the program broke. Asked
    /// of a game still going on.
    pub fn rule_for(&self, line: &str) -> String {
        let player = self.board.to_move();
        let (made, after) = self.after(line);
        let mut rule = match made {
            Err(why) => format!(
                "a move names a square holding one of {player}'s powns that can step forward, \
                 else it is INVALID MOVE{}; here {why}",
                if self.options.reprompt_invalid {
                    " and the same player tries again"
                } else {
                    " and the turn passes"
                }
            ),
            Ok(made) if made.captured => format!(
                "a pown steps one square straight forward, taking (powning) the other side's \
                 pown there; here {player}'s pown on {} takes on {}",
                made.from, made.to
            ),
            Ok(made) => format!(
                "a pown steps one square straight forward; here {player}'s pown on {} goes to {}",
                made.from, made.to
            ),
        };
        let next = after.board.to_move();
        if after.is_finished() {
            rule.push_str(&format!(
                "; then the game ends: {next} has no pown that can move"
            ));
        } else if after.only_takes() {
            let takers: Vec<String> = after.board.takers(next).map(|s| s.to_string()).collect();
            let (powns, face, them) = match takers.len() {
                1 => ("pown", "faces", "it"),
                _ => ("powns", "face", "them"),
            };
            rule.push_str(&format!(
                "; then the game goes on: {next}'s {powns} on {} {face} {}'s and can take {them} \
                 (moves_remaining('{next}') is {})",
                takers.join(", "),
                next.opponent(),
                takers.len()
            ));
        }
        rule
    }

    /// `line` as the program reads a square from it.
    fn typed<'a>(&self, line: &'a str) -> &'a str {
        if self.options.strict_input {
            strict(line)
        } else {
            trim_like_python(line)
        }
    }

    fn try_move(&mut self, text: &str) -> Result<MoveOutcome, InvalidMove> {
        let from = self.board.parse_square(text)?;
        self.board.play(from)
    }

    /// Ends the game when the player to move has no pown that can move; whether it ended.
    fn end_if_stuck(&mut self) -> bool {
        let player = self.board.to_move();
        if self.board.moves_remaining(player) == 0 {
            self.finished = true;
            let board = &self.board;
            self.events.note_with(|| events::of_end(board, player));
        }
        self.finished
    }

    fn start_turn(&mut self) -> String {
        let player = self.board.to_move();
        let board = |program: &Self| {
            display_board(&program.board, &program.options, program.moves_played + 1)
        };
        if self.end_if_stuck() {
            let end = end_of_game(&self.board, player, self.options.count_order);
            if !self.options.board_before_end {
                return end;
            }
            return board(self) + &end;
        }
        let mut out = board(self);
        out.push_str(&messages::prompt(player));
        out
    }
}

/// The whole stdout of a run fed `lines`: the opening and every answer, up to the end of the
/// game (later lines are never read).
pub fn transcript<'a>(options: PownOptions, lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut program = PownProgram::new(options);
    let mut out = program.opening();
    for line in lines {
        if program.is_finished() {
            break;
        }
        out.push_str(&program.input(line));
    }
    out
}

/// The move line, then `b powns a w` after a capture.
fn answer_lines(outcome: &MoveOutcome) -> String {
    let mut out = format!("{}\n", messages::move_line(outcome));
    if outcome.captured {
        out.push_str(&messages::powns_line(outcome.color));
        out.push('\n');
    }
    out
}

/// The end of the game when `stuck`, the player to move, has no movable pown: who is stuck,
/// the two counts in `order`, the winner (more powns) or a tie, `GAME OVER`.
pub fn end_of_game(board: &Board, stuck: Color, order: CountOrder) -> String {
    let other = stuck.opponent();
    let (stuck_count, other_count) = (board.count_pieces(stuck), board.count_pieces(other));
    let result = match stuck_count.cmp(&other_count) {
        std::cmp::Ordering::Greater => messages::wins_line(stuck),
        std::cmp::Ordering::Less => messages::wins_line(other),
        std::cmp::Ordering::Equal => messages::TIE.to_string(),
    };
    let (first, second) = match order {
        CountOrder::OpponentFirst => ((other, other_count), (stuck, stuck_count)),
        CountOrder::StuckFirst => ((stuck, stuck_count), (other, other_count)),
    };
    [
        messages::no_more_moves(stuck),
        messages::pieces_line(first.0, first.1),
        messages::pieces_line(second.0, second.1),
        result,
        messages::GAME_OVER.to_string(),
    ]
    .iter()
    .map(|line| format!("{line}\n"))
    .collect()
}

/// The line as a strict program reads it: only an upper-case square name, as written, is a
/// square (anything else is no square, so `INVALID MOVE`).
fn strict(line: &str) -> &str {
    if line
        .bytes()
        .any(|b| b.is_ascii_lowercase() || b.is_ascii_whitespace())
    {
        ""
    } else {
        line
    }
}

/// Strips what Python's `str.strip()` strips: Unicode white space and the separators
/// U+001C..U+001F, so that the engine reads a line exactly as a student's `input().strip()`.
fn trim_like_python(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pown_chess::render::render_grid;
    use crate::games::pown_chess::{BoardSize, Square};

    fn program_at(options: PownOptions, to_move: Color, rows: &[&str]) -> PownProgram {
        let mut program = PownProgram::new(options);
        program.board = Board::from_rows(options.size, to_move, rows).unwrap();
        program
    }

    fn six() -> PownOptions {
        PownOptions::with_size(6).unwrap()
    }

    #[test]
    fn opening_is_the_board_then_the_prompt() {
        let mut program = PownProgram::new(PownOptions::default());
        let expected = format!("{}w move: ", render_grid(&Board::new(BoardSize::Eight)));
        assert_eq!(program.opening(), expected);
        assert!(!program.is_finished());
    }

    #[test]
    fn a_move_prints_the_move_line_then_the_next_board_and_prompt() {
        let mut program = PownProgram::new(PownOptions::default());
        program.opening();
        let out = program.input("B1");
        let (first, rest) = out.split_once('\n').unwrap();
        assert_eq!(first, "w moves from B1 to B2");
        assert_eq!(rest, format!("{}b move: ", render_grid(program.board())));
        assert_eq!(
            program.input("F8").lines().next(),
            Some("b moves from F8 to F7")
        );
        assert_eq!(program.moves_played(), 2);
    }

    #[test]
    fn the_rule_of_a_typed_line_is_named_with_this_case() {
        let start = PownProgram::new(PownOptions::default());
        assert_eq!(
            start.rule_for(" b1 "),
            "a pown steps one square straight forward; here w's pown on B1 goes to B2"
        );
        assert!(start
            .rule_for("B8")
            .ends_with("else it is INVALID MOVE and the turn passes; here the pown on B8 belongs to the other player"));
        let capture = program_at(
            PownOptions::default(),
            Color::Black,
            &[
                "w.......", "........", "..w.....", "..b.....", "........", "........", "........",
                ".......b",
            ],
        );
        assert!(capture
            .rule_for("C4")
            .ends_with("here b's pown on C4 takes on C3"));
        // Taking White's last pown: the game ends after it.
        let last = program_at(
            PownOptions::default(),
            Color::Black,
            &[
                "........", "........", "........", "........", "........", "........", "w.......",
                "b.......",
            ],
        );
        assert!(
            last.rule_for("A8")
                .ends_with("; then the game ends: w has no pown that can move"),
            "{}",
            last.rule_for("A8")
        );
        assert_eq!(
            PownProgram::new(six()).opening_rule(),
            "the game opens with the board: a column header, then rows 1 to 6, w's 6 powns on \
             row 1 and b's on row 6, every other square empty; then w's prompt `w move: `"
        );
        // White can then only take: the game goes on, and the note says why.
        let facing = program_at(
            PownOptions::default(),
            Color::Black,
            &[
                "........", "w.......", "b.......", "........", "........", "........", "........",
                ".......b",
            ],
        );
        assert_eq!(
            facing.rule_for("H8"),
            "a pown steps one square straight forward; here b's pown on H8 goes to H7; then \
             the game goes on: w's pown on A2 faces b's and can take it (moves_remaining('w') \
             is 1)"
        );
    }

    #[test]
    fn input_ignores_surrounding_space_and_accepts_lower_case() {
        for typed in ["  b1 ", "\tB1\r", "b1"] {
            let mut program = PownProgram::new(PownOptions::default());
            assert!(
                program.input(typed).starts_with("w moves from B1 to B2\n"),
                "{typed:?}"
            );
        }
        let mut program = PownProgram::new(PownOptions::default());
        assert!(program.input("B 1").starts_with("INVALID MOVE\n"));
    }

    #[test]
    fn capture_prints_the_powns_line_as_in_the_handout() {
        let mut program = program_at(
            PownOptions::default(),
            Color::Black,
            &[
                "w.......", "........", "..w.....", "..b.....", "........", "........", "........",
                ".......b",
            ],
        );
        let out = program.input("C4");
        assert!(
            out.starts_with("b moves from C4 to C3\nb powns a w\n"),
            "{out}"
        );
        assert_eq!(program.board().count_pieces(Color::White), 1);
    }

    #[test]
    fn every_invalid_kind_prints_invalid_move_and_passes_the_turn() {
        let rows = ["ww....", "w.....", "......", "......", "......", "b....w"];
        // no such square (twice), empty, wrong colour, last row, blocked by own pown
        for typed in ["G1", "xyz", "C3", "A6", "F6", "A1"] {
            let mut program = program_at(six(), Color::White, &rows);
            let before = program.board().clone();
            let out = program.input(typed);
            let (first, rest) = out.split_once('\n').unwrap();
            assert_eq!(first, "INVALID MOVE", "{typed}");
            assert!(rest.ends_with("\nb move: "), "{typed}: {rest}");
            assert_eq!(program.board().to_move(), Color::Black);
            assert_eq!(program.moves_played(), 0);
            let mut expected = before;
            expected.pass_turn();
            assert_eq!(program.board(), &expected);
        }
    }

    #[test]
    fn reprompt_option_asks_the_same_player_again() {
        let options = PownOptions {
            reprompt_invalid: true,
            ..PownOptions::default()
        };
        let mut program = PownProgram::new(options);
        let out = program.input("C3");
        assert_eq!(
            out,
            format!(
                "INVALID MOVE\n{}w move: ",
                render_grid(&Board::new(BoardSize::Eight))
            )
        );
        assert!(program.input("C1").starts_with("w moves from C1 to C2\n"));
    }

    #[test]
    fn handout_ending_stuck_player_with_fewer_pieces_loses() {
        // w's two powns are on row 8; b moves F2 to F1 and w cannot move.
        let mut program = program_at(
            PownOptions::default(),
            Color::Black,
            &[
                "........", ".....b..", "........", "........", "b.......", "........", "........",
                "ww.b....",
            ],
        );
        let out = program.input("F2");
        assert_eq!(
            out,
            "b moves from F2 to F1\nThere are no more moves for w\nb has 3 pieces\n\
             w has 2 pieces\nb wins!!\nGAME OVER\n"
        );
        assert!(program.is_finished());
        assert_eq!(program.input("A5"), "");
        assert_eq!(program.opening(), "");
    }

    #[test]
    fn board_before_end_shows_the_last_board_between_the_move_and_the_end_lines() {
        let rows = ["......", "b.....", "......", "......", "......", "www..."];
        let plain = program_at(six(), Color::Black, &rows).input("A2");
        let options = PownOptions {
            board_before_end: true,
            ..six()
        };
        let mut program = program_at(options, Color::Black, &rows);
        let out = program.input("A2");
        let (moved, end) = plain.split_at(plain.find("There are").unwrap());
        let board = display_board(program.board(), &options, 2);
        assert!(board.starts_with("     A   B"), "{board}");
        assert_eq!(out, format!("{moved}{board}{end}"));
        assert!(program.is_finished());
    }

    #[test]
    fn stuck_player_with_more_pieces_wins() {
        // w's three powns are all on their last row; b moves and w is stuck with more powns.
        let mut program = program_at(
            six(),
            Color::Black,
            &["......", "b.....", "......", "......", "......", "www..."],
        );
        let out = program.input("A2");
        assert_eq!(
            out,
            "b moves from A2 to A1\nThere are no more moves for w\nb has 1 pieces\n\
             w has 3 pieces\nw wins!!\nGAME OVER\n"
        );
    }

    #[test]
    fn player_without_powns_loses_and_equal_counts_tie() {
        let mut program = program_at(
            six(),
            Color::White,
            &["......", "......", "......", "......", "w.....", "b....."],
        );
        // w takes b's only pown; b has none left, w has one.
        let out = program.input("A5");
        assert_eq!(
            out,
            "w moves from A5 to A6\nw powns a b\nThere are no more moves for b\nw has 1 pieces\n\
             b has 0 pieces\nw wins!!\nGAME OVER\n"
        );
        let mut program = program_at(
            six(),
            Color::White,
            &[".....b", "......", "......", "......", "w.....", "......"],
        );
        let out = program.input("A5");
        assert!(out.ends_with(
            "There are no more moves for b\nw has 1 pieces\nb has 1 pieces\nIt's a tie!!\nGAME OVER\n"
        ), "{out}");
    }

    #[test]
    fn a_player_blocked_by_own_powns_only_is_stuck() {
        // b's powns on A2 and A1: A1 is on its last row, A2 is blocked by A1.
        let mut program = program_at(
            six(),
            Color::White,
            &["b.....", "b.....", "......", "w.....", "......", "......"],
        );
        let out = program.input("A4");
        assert!(
            out.starts_with("w moves from A4 to A5\nThere are no more moves for b\n"),
            "{out}"
        );
        assert!(out.ends_with("w has 1 pieces\nb has 2 pieces\nb wins!!\nGAME OVER\n"));
    }

    #[test]
    fn invalid_move_can_end_the_game_for_the_next_player() {
        let mut program = program_at(
            six(),
            Color::White,
            &["b.....", "......", "......", "w.....", "......", "......"],
        );
        let out = program.input("F1");
        assert!(
            out.starts_with("INVALID MOVE\nThere are no more moves for b\n"),
            "{out}"
        );
        assert!(program.is_finished());
    }

    #[test]
    fn move_counter_counts_played_moves_only() {
        let options = PownOptions {
            move_counter: true,
            ..PownOptions::default()
        };
        let mut program = PownProgram::new(options);
        assert!(program
            .opening()
            .starts_with(&format!("{}Move #1 -- w: 8 b:8", " ".repeat(8))));
        let after_invalid = program.input("Z9");
        assert!(after_invalid.contains("Move #1 -- w: 8 b:8"));
        let after_move = program.input("A8");
        assert!(after_move.contains("Move #2 -- w: 8 b:8"), "{after_move}");
    }

    #[test]
    fn score_header_follows_captures() {
        let options = PownOptions {
            score_header: true,
            ..six()
        };
        let mut program = program_at(
            options,
            Color::White,
            &["......", "......", "w.....", "b.....", "......", "....bb"],
        );
        let out = program.input("A3");
        assert!(
            out.contains("\n         w: 1 b: 2          \n     A   B"),
            "{out}"
        );
    }

    #[test]
    fn transcript_stops_reading_at_the_end_of_the_game() {
        // Play the first movable pown every turn until the game ends, then keep typing.
        let mut program = PownProgram::new(six());
        let mut expected = program.opening();
        let mut typed = Vec::new();
        while !program.is_finished() {
            let board = program.board();
            let square = board.movable_pieces(board.to_move()).next().unwrap();
            typed.push(square.to_string());
            expected.push_str(&program.input(&square.to_string()));
        }
        typed.extend(["A1", "F6"].map(String::from));
        let out = transcript(six(), typed.iter().map(String::as_str));
        assert_eq!(out, expected);
        assert!(out.ends_with("GAME OVER\n"));
        assert_eq!(out.matches("GAME OVER").count(), 1);
        assert_eq!(out.matches("INVALID MOVE").count(), 0);
    }

    #[test]
    fn any_input_gets_an_answer_and_games_end_once() {
        use crate::rng::Rng;
        let junk = [
            "", " ", "A", "A0", "A9", "I1", "a 1", "ä1", "A1\n", "\u{1c}B1", "🙂", "H8H8",
        ];
        let mut rng = Rng::new(2024);
        for game in 0..40 {
            let options = PownOptions {
                reprompt_invalid: game % 2 == 0,
                size: if game % 3 == 0 {
                    BoardSize::Six
                } else {
                    BoardSize::Eight
                },
                ..PownOptions::default()
            };
            let mut program = PownProgram::new(options);
            assert!(program.opening().ends_with("w move: "));
            let mut pieces = program.board().count_pieces(Color::White)
                + program.board().count_pieces(Color::Black);
            while !program.is_finished() {
                let line = if rng.chance(1, 4) {
                    rng.pick(&junk).unwrap().to_string()
                } else {
                    let n = program.board().size().get();
                    format!("{}{}", Square::col_letter(rng.below(n)), 1 + rng.below(n))
                };
                let out = program.input(&line);
                let prompt = messages::prompt(program.board().to_move());
                assert!(
                    out.ends_with(&prompt) || out.ends_with("GAME OVER\n"),
                    "{line:?}: {out}"
                );
                assert_eq!(out.ends_with("GAME OVER\n"), program.is_finished());
                let now = program.board().count_pieces(Color::White)
                    + program.board().count_pieces(Color::Black);
                assert!(now <= pieces);
                pieces = now;
            }
            assert_eq!(program.input("A1"), "");
        }
    }
}
