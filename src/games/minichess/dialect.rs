//! The miniChess dialects as data: each names the handout's two functions and the order of
//! their arguments. Everything else (the reference session, the Python adapter, the match
//! driver) reads this table, so a dialect is one entry here.

use super::board::{Board, Color};
use super::notation::{self, Rows};
use crate::execution::PythonLaunch;
use crate::games::{Dialect, Protocol};

/// The two functions of a dialect and how they take their arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Functions {
    /// The move generator: a board and a color to the list of boards one move away.
    pub maker: &'static str,
    /// The move chooser: a list of boards and a color to one of those boards.
    pub chooser: &'static str,
    /// True when the color comes first (`generateMoves(color, board)`).
    pub color_first: bool,
}

/// One row of the table: the dialect as the harness sees it, and its functions.
pub struct Flavor {
    pub dialect: Dialect,
    pub functions: Functions,
}

/// Builds a table row. The Python adapter is the shared `adapter.py` with a last line that
/// serves exactly this dialect's two functions, so names are written once, here.
macro_rules! flavor {
    (name: $name:literal, entry: $entry:literal, maker: $maker:literal,
     chooser: $chooser:literal, color_first: $color_first:literal) => {
        Flavor {
            dialect: Dialect {
                name: $name,
                protocol: Protocol::Call,
                handout: HANDOUT,
                entry_file: $entry,
                defines: &[$maker, $chooser],
                python: PythonLaunch::Adapter {
                    script: concat!(
                        include_str!("adapter.py"),
                        "\nserve_functions(",
                        stringify!($maker),
                        ", ",
                        stringify!($chooser),
                        ")\n"
                    ),
                    // A chooser may search as long as its scenario allows.
                    call_limit: None,
                },
                session: |options| {
                    crate::games::check_option_keys(options, &[])?;
                    const FUNCTIONS: Functions = Functions {
                        maker: $maker,
                        chooser: $chooser,
                        color_first: $color_first,
                    };
                    Ok(Box::new(super::session::CallSession::new(&FUNCTIONS)))
                },
                graded_with: None,
            },
            functions: Functions {
                maker: $maker,
                chooser: $chooser,
                color_first: $color_first,
            },
        }
    };
}

/// Seed 003: the ECS 10 handout. The older `hexapawn` version of the course has no handout
/// of its own among the seeds; its scenarios cite seed 003 for the rules.
const HANDOUT: &str = "003_67d185c3c9d5a8e1.txt";

const TABLE: [Flavor; 2] = [
    flavor!(name: "ecs10", entry: "prog67.py", maker: "move_maker",
            chooser: "move_chooser", color_first: false),
    flavor!(name: "hexapawn", entry: "hexapawn.py", maker: "generateMoves",
            chooser: "chooseBestMove", color_first: true),
];

static FLAVORS: [Flavor; 2] = TABLE;

/// The dialects, in the table's order (the first is the default).
pub static DIALECTS: [Dialect; 2] = [TABLE[0].dialect, TABLE[1].dialect];

/// The functions of a dialect, by name.
pub fn functions(dialect: &str) -> Option<&'static Functions> {
    FLAVORS
        .iter()
        .find(|f| f.dialect.name == dialect)
        .map(|f| &f.functions)
}

/// A protocol command, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    Maker { board: Board, color: Color },
    Chooser { boards: Vec<Board>, color: Color },
}

impl Functions {
    /// The command line asking for the moves of `color` on `board`.
    pub fn maker_line(&self, board: &Board, color: Color) -> String {
        self.line(self.maker, notation::board_text(board), color)
    }

    /// The command line asking to choose among `boards` (as a submission gave them).
    pub fn chooser_line(&self, boards: &[Rows], color: Color) -> String {
        self.line(self.chooser, notation::rows_list_text(boards), color)
    }

    fn line(&self, function: &str, boards: String, color: Color) -> String {
        if self.color_first {
            format!("{function} {} {boards}", color.code())
        } else {
            format!("{function} {boards} {}", color.code())
        }
    }

    /// Reads a command line: one of the two function names, then its arguments as JSON
    /// values in the dialect's order. The message of an error reads like Python's.
    pub fn parse(&self, line: &str) -> Result<Call, String> {
        let line = line.trim();
        let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let is_maker = if name == self.maker {
            true
        } else if name == self.chooser {
            false
        } else {
            return Err(format!("UnknownCommand: '{name}'"));
        };
        let values = notation::json_values(rest).map_err(|e| format!("ValueError: {e}"))?;
        let [first, second] = values.as_slice() else {
            return Err(format!(
                "TypeError: {name}() takes 2 arguments but {} were given",
                values.len()
            ));
        };
        let (boards, color) = if self.color_first {
            (second, first)
        } else {
            (first, second)
        };
        let color = notation::color_from_value(color).map_err(|e| format!("ValueError: {e}"))?;
        let invalid = |e: String| format!("ValueError: {e}");
        if is_maker {
            let rows = notation::rows_from_value(boards, "the board").map_err(invalid)?;
            let board = notation::board_of(&rows).map_err(invalid)?;
            Ok(Call::Maker { board, color })
        } else {
            let list = notation::rows_list_from_value(boards, "the list").map_err(invalid)?;
            let boards = list
                .iter()
                .map(|rows| notation::board_of(rows))
                .collect::<Result<Vec<_>, _>>()
                .map_err(invalid)?;
            Ok(Call::Chooser { boards, color })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Board {
        Board::from_rows(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]).unwrap()
    }

    #[test]
    fn each_dialect_orders_its_arguments() {
        let ecs10 = functions("ecs10").unwrap();
        let hexapawn = functions("hexapawn").unwrap();
        assert_eq!(
            ecs10.maker_line(&example(), Color::Black),
            "move_maker [[0, 1, 1], [1, 0, 0], [2, 2, 2]] 2"
        );
        assert_eq!(
            hexapawn.maker_line(&example(), Color::Black),
            "generateMoves 2 [[0, 1, 1], [1, 0, 0], [2, 2, 2]]"
        );
        for f in [ecs10, hexapawn] {
            let line = f.maker_line(&example(), Color::White);
            assert_eq!(
                f.parse(&line),
                Ok(Call::Maker {
                    board: example(),
                    color: Color::White
                })
            );
            let list = vec![notation::rows_of(&example())];
            assert_eq!(
                f.parse(&f.chooser_line(&list, Color::Black)),
                Ok(Call::Chooser {
                    boards: vec![example()],
                    color: Color::Black
                })
            );
        }
    }

    #[test]
    fn the_adapter_serves_the_tables_names() {
        for flavor in &FLAVORS {
            let PythonLaunch::Adapter { script, .. } = flavor.dialect.python else {
                panic!("minichess dialects use the adapter");
            };
            let last = script.trim_end().lines().last().unwrap();
            assert_eq!(
                last,
                format!(
                    "serve_functions(\"{}\", \"{}\")",
                    flavor.functions.maker, flavor.functions.chooser
                )
            );
        }
    }

    #[test]
    fn bad_commands_are_errors_not_panics() {
        let f = functions("ecs10").unwrap();
        for (line, start) in [
            ("jump 1", "UnknownCommand"),
            ("move_maker", "TypeError"),
            ("move_maker [[0,1,1],[1,0,0],[2,2,2]]", "TypeError"),
            ("move_maker [[0,1,1],[1,0,0],[2,2,2]] 3", "ValueError"),
            ("move_maker [[0,1],[1,0]] 1", "ValueError"),
            ("move_maker [[0,1,1],[1,0,0],[2,2,2 1", "ValueError"),
            ("move_chooser [[0,1,1],[1,0,0],[2,2,2]] 1", "ValueError"),
            ("move_maker \"x\" 1", "ValueError"),
        ] {
            let error = f.parse(line).unwrap_err();
            assert!(error.starts_with(start), "{line}: {error}");
        }
    }
}
