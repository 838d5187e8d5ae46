//! 1D chess (seeds 000 and 001): a 1 x 9 board with a king and two knights a side.

pub mod csc110;
pub mod engine;
mod inputs;
pub mod project5;
pub mod render;

use crate::games::{
    check_option_keys, BoardReader, Dialect, Game, Part, Protocol, PythonLaunch, Response,
};
use crate::policy::PolicyOption;

const DIALECTS: &[Dialect] = &[
    Dialect {
        name: "project5",
        protocol: Protocol::Call,
        handout: "000_78f0643f6cc5cf69.txt",
        entry_file: "one_d_chess.py",
        defines: &[
            "create_board",
            "printable_board",
            "is_valid_move",
            "move",
            "move_king",
            "move_knight",
            "is_game_over",
        ],
        python: PythonLaunch::Adapter {
            script: include_str!("project5_adapter.py"),
        },
        session: |options| {
            check_option_keys(options, &[])?;
            Ok(Box::new(project5::Project5::new()))
        },
    },
    Dialect {
        name: "csc110",
        protocol: Protocol::Program,
        handout: "001_681bc189bd19974e.txt",
        entry_file: "chess.py",
        defines: &[
            "print_board",
            "is_valid_move",
            "move",
            "move_king",
            "move_knight",
            "is_game_over",
            "main",
        ],
        python: PythonLaunch::Program {
            stubs: &[("graphics.py", include_str!("graphics_stub.py"))],
        },
        session: |options| {
            check_option_keys(options, &[])?;
            Ok(Box::new(csc110::Csc110::new()))
        },
    },
];

/// The game `one-d-chess`.
pub struct OneDChess;

impl Game for OneDChess {
    fn name(&self) -> &'static str {
        "one-d-chess"
    }

    fn dialects(&self) -> &'static [Dialect] {
        DIALECTS
    }

    fn board_reader(&self) -> &dyn BoardReader {
        &render::OneDBoards
    }

    fn part_names(&self, dialect: &str) -> &'static [&'static str] {
        match dialect {
            "project5" => project5::PARTS,
            _ => &[],
        }
    }

    fn split_response(&self, dialect: &str, command: &str, text: &str) -> Response {
        match dialect {
            "project5" => project5::split_response(command, text),
            _ => Response::from_text(text),
        }
    }

    fn response_parts(&self, _dialect: &str, command: &str, response: &Response) -> Vec<Part> {
        project5::response_parts(command, response)
    }

    fn policy_options(&self, dialect: &str) -> &'static [PolicyOption] {
        match dialect {
            "csc110" => csc110::POLICY,
            _ => &[],
        }
    }
}
