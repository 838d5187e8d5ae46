//! 1D chess (seeds 000 and 001): a 1 x 9 board with a king and two knights a side.

mod alone;
mod battery;
pub mod csc110;
mod csc110_battery;
pub mod engine;
mod events;
mod inputs;
pub mod interface;
mod policy;
pub mod project5;
pub mod render;

use std::time::Duration;

use crate::execution::{PythonLaunch, Stubs};
use crate::games::variant::{Derive, Derived};
use crate::games::{
    check_option_keys, BoardReader, Dialect, DivergentStep, Game, GameOptions, OptionError, Origin,
    Protocol, RuleEvent, Session, NO_POLICY_RULES,
};
use interface::Interface;

/// The project5 adapter: it serves the functions of the interface it is given as data, the
/// line boardgrade appends (`serve_interface({...})`).
const PROJECT5_ADAPTER: &str = include_str!("project5_adapter.py");

/// The `graphics` module seed 001's course gave its students, as a stub that draws nothing.
const CSC110_STUBS: Stubs = &[("graphics.py", include_str!("graphics_stub.py"))];

static DIALECTS: &[Dialect] = &[
    Dialect {
        name: "project5",
        protocol: Protocol::Call,
        handout: "000_78f0643f6cc5cf69.txt",
        asks_python3: false,
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
            script: concat!(
                include_str!("project5_adapter.py"),
                "\nserve_interface(",
                include_str!("project5.json"),
                ")\n"
            ),
            // Each call is a few list operations (microseconds).
            call_limit: Some(Duration::from_secs(2)),
            stubs: &[],
        },
        session: |options| {
            Ok(Box::new(project5::Project5::with_options(
                &interface::HANDOUT,
                options,
            )?))
        },
        graded_with: None,
        parts: Some(&project5::PARTS_TABLE),
        policy: &policy::POLICY,
        // Its own and seed 001's functions (the same roles under csc110's tokens) play the
        // battery; a variant does not: it may rename or drop the functions the battery calls.
        battery: Some(&battery::OneDBattery),
        origin: Origin::BuiltIn,
    },
    Dialect {
        name: "csc110",
        protocol: Protocol::Program,
        handout: "001_681bc189bd19974e.txt",
        asks_python3: false,
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
            stubs: CSC110_STUBS,
        },
        session: |options| {
            check_option_keys(options, &[])?;
            Ok(Box::new(csc110::Csc110::new()))
        },
        graded_with: None,
        parts: None,
        policy: &csc110::POLICY,
        // Whole games typed into the program, beside `csc110-functions`'s battery.
        battery: Some(&csc110_battery::Csc110Battery),
        origin: Origin::BuiltIn,
    },
    // Seed 001's functions, called one by one in the student's whole `chess.py` (its
    // `main()` is not run): graded beside the program, each function on its own.
    Dialect {
        name: "csc110-functions",
        protocol: Protocol::Call,
        handout: "001_681bc189bd19974e.txt",
        asks_python3: false,
        entry_file: "chess.py",
        defines: &[
            "is_valid_move",
            "move",
            "move_king",
            "move_knight",
            "is_game_over",
        ],
        python: PythonLaunch::Adapter {
            script: concat!(
                include_str!("project5_adapter.py"),
                "\nserve_interface(",
                include_str!("csc110_functions.json"),
                ")\n"
            ),
            // Each call is a few list operations, as in project5.
            call_limit: Some(Duration::from_secs(2)),
            // The whole `chess.py` is loaded: its `from graphics import graphics` too.
            stubs: CSC110_STUBS,
        },
        session: |options| {
            check_option_keys(options, &[])?;
            Ok(Box::new(project5::Project5::with(
                &interface::CSC110_FUNCTIONS,
            )))
        },
        graded_with: Some("csc110"),
        parts: Some(&project5::PARTS_TABLE),
        policy: &NO_POLICY_RULES,
        battery: Some(&battery::OneDBattery),
        origin: Origin::BuiltIn,
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

    fn rule_events(&self) -> &'static [RuleEvent] {
        events::Event::ALL
    }

    /// A call dialect's divergence as the one call that differs, on the board it was given.
    fn explain(&self, step: &DivergentStep<'_>) -> Vec<String> {
        let Some(interface) = interface_of(step.dialect) else {
            return Vec::new();
        };
        match project5::Project5::with_options(interface, step.options) {
            Ok(session) => {
                alone::notes(session, interface, step.sent, !step.only_printing_differs())
                    .unwrap_or_default()
            }
            Err(_) => Vec::new(),
        }
    }

    fn variants(&self) -> Option<&dyn Derive> {
        Some(self)
    }
}

/// project5's names, tokens and messages, as a course's variant changes them.
impl Derive for OneDChess {
    fn keys(&self, dialect: &Dialect) -> Option<String> {
        (dialect.name == "project5").then(|| interface::HANDOUT.keys_text())
    }

    fn derive(&self, base: &'static Dialect, keys: &toml::Table) -> Result<Derived, OptionError> {
        if base.name != "project5" {
            return Err(OptionError::new(
                "base",
                format!(
                    "one-d-chess/{} has nothing a variant can change (project5 has)",
                    base.name
                ),
            ));
        }
        let interface = Interface::derive(keys)?;
        let (entry_file, defines) = (interface.entry_file.clone(), interface.defines());
        Derived::served_by(
            PROJECT5_ADAPTER,
            interface,
            entry_file,
            defines,
            "functions",
        )
    }

    fn start_variant(
        &self,
        variant: &Dialect,
        options: &GameOptions,
    ) -> Result<Box<dyn Session>, OptionError> {
        let interface = interface_of(variant).ok_or_else(|| {
            OptionError::new(
                "dialect",
                format!("{} is not a project5 variant", variant.name),
            )
        })?;
        Ok(Box::new(project5::Project5::with_options(
            interface, options,
        )?))
    }
}

/// The functions a call dialect's submission defines: the handout's, csc110's, or a project5
/// variant's own. `None` for the whole-program dialect.
fn interface_of(dialect: &Dialect) -> Option<&'static Interface> {
    match dialect.name {
        "project5" => Some(&interface::HANDOUT),
        "csc110-functions" => Some(&interface::CSC110_FUNCTIONS),
        _ => dialect.variant_data(),
    }
}
