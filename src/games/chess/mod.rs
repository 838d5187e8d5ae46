//! Full chess: the reference engine (bitboard move generation, FEN, perft, game-end
//! rules), the `ChessLogic` semantics of the `ecs198f` dialect (seed 004) and the game's
//! place in the harness: reference session, board reader, Python adapter and explanations.

mod attacks;
mod battery;
mod bitboard;
mod board;
mod castling;
mod draw_reading;
pub mod ecs198f;
pub mod epd;
mod explain;
mod fen;
pub mod interface;
mod logic;
mod magic;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
mod position;
mod rays;
pub mod render;
mod rules;
mod spellings;
mod types;

pub use castling::CastlingRights;
pub use fen::FenError;
pub use logic::{ChessLogic, ChessOptions};
pub use moves::Move;
pub use outcome::{DrawReason, Outcome, PositionKey, Repetitions};
pub use position::{IllegalMove, Position};
pub use types::{CastlingSide, Color, Piece, Role, Square};

use std::time::Duration;

use crate::execution::PythonLaunch;
use crate::games::variant::{Derive, Derived};
use crate::games::{
    BoardReader, CaseShrink, Dialect, DivergentStep, Game, GameOptions, OptionError, Origin,
    Protocol, RuleEvent, Session,
};

/// The ecs198f adapter: it serves the class, method and fields of the interface it is given
/// as data, the line boardgrade appends (`serve_interface({...})`).
const ECS198F_ADAPTER: &str = include_str!("ecs198f_adapter.py");
use ecs198f::{Ecs198f, ScenarioOptions};

static DIALECTS: &[Dialect] = &[Dialect {
    name: "ecs198f",
    protocol: Protocol::Call,
    handout: "004_61c62adb62a8b4b7.txt",
    asks_python3: false,
    entry_file: "pychess/logic/chess_logic.py",
    defines: &["ChessLogic"],
    python: PythonLaunch::Adapter {
        script: concat!(
            include_str!("ecs198f_adapter.py"),
            "\nserve_interface(",
            include_str!("ecs198f.json"),
            ")\n"
        ),
        // A move of a slow but correct legal-move generator takes milliseconds.
        call_limit: Some(Duration::from_secs(5)),
        stubs: &[],
    },
    session: |options| Ok(Box::new(Ecs198f::new(ScenarioOptions::parse(options)?))),
    graded_with: None,
    parts: Some(&ecs198f::PARTS_TABLE),
    policy: &spellings::Spellings,
    battery: Some(&battery::ChessBattery),
    origin: Origin::BuiltIn,
}];

/// The game `chess`.
pub struct Chess;

impl Game for Chess {
    fn name(&self) -> &'static str {
        "chess"
    }

    fn dialects(&self) -> &'static [Dialect] {
        DIALECTS
    }

    fn board_reader(&self) -> &dyn BoardReader {
        &render::ChessBoards
    }

    fn variants(&self) -> Option<&dyn Derive> {
        Some(self)
    }

    fn rule_events(&self) -> &'static [RuleEvent] {
        rules::Event::ALL
    }

    fn explain(&self, step: &DivergentStep<'_>) -> Vec<String> {
        match ScenarioOptions::parse(step.options) {
            Ok(options) => explain::notes(options, step.sent, step.actual),
            Err(_) => Vec::new(),
        }
    }

    fn shortest_case(&self, step: &DivergentStep<'_>) -> Option<Box<dyn CaseShrink>> {
        let options = ScenarioOptions::parse(step.options).ok()?;
        let case = explain::case(options, step.sent)?;
        Some(Box::new(case))
    }
}

/// ecs198f's class, method and field names and its notation, as a course's variant changes
/// them.
impl Derive for Chess {
    fn keys(&self, _dialect: &Dialect) -> Option<String> {
        Some(interface::HANDOUT.keys_text())
    }

    fn derive(&self, _base: &'static Dialect, keys: &toml::Table) -> Result<Derived, OptionError> {
        let interface = interface::Interface::derive(keys)?;
        let (entry_file, defines) = (interface.entry_file.clone(), vec![interface.class.clone()]);
        let derived = Derived::served_by(ECS198F_ADAPTER, interface, entry_file, defines, "class")?;
        // A variant respells answers; the battery's games read its own reference's.
        Ok(derived.with_battery(&battery::ChessBattery))
    }

    fn start_variant(
        &self,
        variant: &Dialect,
        options: &GameOptions,
    ) -> Result<Box<dyn Session>, OptionError> {
        let interface: &'static interface::Interface = variant.variant_data().ok_or_else(|| {
            OptionError::new(
                "dialect",
                format!("{} is not an ecs198f variant", variant.name),
            )
        })?;
        Ok(Box::new(Ecs198f::with(
            ScenarioOptions::parse(options)?,
            interface,
        )))
    }
}
