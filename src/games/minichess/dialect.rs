//! The miniChess dialects as data: each names the handout's two functions and the order of
//! their arguments. Everything else (the reference session, the Python adapter, the match
//! driver) reads this table, so a dialect is one entry here.

pub use super::functions::{Call, Functions};
use crate::execution::PythonLaunch;
use crate::games::{Dialect, Origin, Protocol, NO_POLICY_RULES};

/// One row of the table: the dialect as the harness sees it, and its functions.
pub struct Flavor {
    pub dialect: Dialect,
    pub functions: Functions,
}

/// Builds a table row. The Python adapter is the shared `adapter.py` with a last line that
/// serves exactly this dialect's two functions, so names are written once, here.
macro_rules! flavor {
    (name: $name:literal, entry: $entry:literal, maker: $maker:literal,
     chooser: $chooser:literal, color_first: $color_first:literal,
     asks_python3: $asks_python3:literal) => {{
        const FUNCTIONS: Functions = Functions {
            maker: $maker,
            chooser: $chooser,
            color_first: $color_first,
        };
        Flavor {
            dialect: Dialect {
                name: $name,
                protocol: Protocol::Call,
                handout: HANDOUT,
                asks_python3: $asks_python3,
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
                    stubs: &[],
                },
                session: |options| {
                    crate::games::check_option_keys(options, &[])?;
                    Ok(Box::new(super::session::CallSession::new(&FUNCTIONS)))
                },
                graded_with: None,
                parts: Some(&super::parts::MoveLists {
                    functions: FUNCTIONS,
                }),
                policy: &NO_POLICY_RULES,
                battery: Some(&super::battery::MiniBattery {
                    functions: FUNCTIONS,
                }),
                origin: Origin::BuiltIn,
            },
            functions: FUNCTIONS,
        }
    }};
}

/// Seed 003: the ECS 10 handout. The older `hexapawn` version of the course has no handout
/// of its own among the seeds; its scenarios cite seed 003 for the rules.
const HANDOUT: &str = "003_67d185c3c9d5a8e1.txt";

const TABLE: [Flavor; 2] = [
    // Seed 003: "All solutions are to be written using Python 3."
    flavor!(name: "ecs10", entry: "prog67.py", maker: "move_maker",
            chooser: "move_chooser", color_first: false, asks_python3: true),
    // Its own handout is not among the seeds: nothing it says about the version is known.
    flavor!(name: "hexapawn", entry: "hexapawn.py", maker: "generateMoves",
            chooser: "chooseBestMove", color_first: true, asks_python3: false),
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

#[cfg(test)]
mod tests {
    use super::super::board::{Board, Color};
    use super::super::notation;
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
