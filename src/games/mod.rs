//! The games: one folder per game, each behind the [`Game`] trait, listed in [`REGISTRY`].
//!
//! A game knows its dialects (one per handout), starts reference [`Session`]s that answer a
//! dialect's protocol exactly as a correct submission would, and reads its own board renderings
//! so that reports can name the cells that differ. A course's variants of a dialect
//! ([`variant`]) are dialects too: a game finds them by name like its own.

pub mod battery;
pub mod board_text;
pub mod case_shrink;
pub mod chess;
pub mod matches;
pub mod minichess;
pub mod one_d_chess;
mod policy_rules;
pub mod pown_chess;
pub mod rule_events;
#[cfg(test)]
mod toy;
pub mod variant;
pub mod variant_keys;

#[cfg(test)]
mod tests {
    #[test]
    fn a_dialect_reads_the_same_in_every_run() {
        // Its debug text goes into scenario fingerprints, so it holds no address.
        for game in super::REGISTRY {
            for dialect in game.dialects() {
                let text = format!("{dialect:?}");
                assert!(!text.contains("0x"), "{text}");
                assert!(text.contains(dialect.entry_file), "{text}");
            }
        }
    }

    #[test]
    fn only_a_print_that_differs_alone_is_only_printing() {
        let options = super::GameOptions::new();
        let step = |differing: &[&str]| {
            let differing: Vec<String> = differing.iter().map(|p| p.to_string()).collect();
            super::DivergentStep {
                dialect: &super::REGISTRY[0].dialects()[0],
                options: &options,
                sent: &[],
                expected: "",
                actual: "",
                differing: &differing,
            }
            .only_printing_differs()
        };
        assert!(step(&["printed"]));
        assert!(!step(&["printed", "board"]));
        assert!(!step(&["value"]));
        // Nothing named: the call raised, or the output is judged whole.
        assert!(!step(&[]));
    }
}

use std::any::Any;
use std::borrow::Cow;
use std::fmt;

pub use crate::compare::framed::Response;
pub use board_text::{BoardReader, CellDiff, FoundBoard};
pub use case_shrink::CaseShrink;
pub use policy_rules::{OptionsOnly, PolicyRules, UnsetPart, NO_POLICY_RULES};
pub use rule_events::RuleEvent;

use crate::execution::{Layout, PythonLaunch, Secrecy};

/// Every game boardgrade knows. Adding a game is one line here and a folder beside this file.
pub static REGISTRY: &[&dyn Game] = &[
    &one_d_chess::OneDChess,
    &pown_chess::PownChess,
    &minichess::MiniChess,
    &chess::Chess,
    #[cfg(test)]
    &toy::Counter,
];

/// How a dialect talks over stdin/stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// Each stdin line is a command named after a handout function; the response is what the
    /// call printed followed by its return value. Python submissions run under an adapter.
    Call,
    /// The student's own program is the game: stdin is what a player types, stdout is
    /// everything it prints. Python submissions run as they are.
    Program,
}

/// One handout's version of a game's interface.
#[derive(Clone, Copy)]
pub struct Dialect {
    pub name: &'static str,
    pub protocol: Protocol,
    /// The handout this dialect transcribes (a file of `shared/seeds/`).
    pub handout: &'static str,
    /// Whether the handout asks for Python 3 in so many words: a Python 2 program is then
    /// refused (it does not load) rather than run translated by 2to3.
    pub asks_python3: bool,
    /// The file name a submission of this dialect is expected to have.
    pub entry_file: &'static str,
    /// The top-level names (functions, classes, variables) the handout asks a submission to
    /// define: a submission is routed to the dialect whose names its code defines, whatever
    /// its file is called. Empty for whole programs that need no particular name.
    pub defines: &'static [&'static str],
    pub python: PythonLaunch,
    /// Starts a reference session of this dialect. Unknown or ill-typed options are errors.
    pub session: fn(&GameOptions) -> Result<Box<dyn Session>, OptionError>,
    /// For a dialect that calls the named functions of another dialect's whole program: that
    /// dialect's name. It is never routed to by itself; a submission routed to that dialect
    /// is graded on this one's scenarios too, so a program whose game runs but whose
    /// functions are wrong (or the reverse) is graded on each.
    pub graded_with: Option<&'static str>,
    /// How a call dialect's responses split into named parts; `None`: a response is its
    /// printed text and its return value, and the output is judged whole.
    pub parts: Option<&'static dyn ResponseParts>,
    /// What the dialect's course-policy options are and do.
    pub policy: &'static dyn PolicyRules,
    /// The dialect's rule battery, where it has one: seeded games trying the moves buggy
    /// programs get wrong, one scenario per rule family.
    pub battery: Option<&'static dyn battery::Battery>,
    /// Built in, or a course's variant of a built-in dialect.
    pub origin: Origin,
}

/// How a call dialect's responses split into named parts: what a scenario's `judge` key
/// chooses among (a returned board, the printed text, the notation string).
pub trait ResponseParts: Sync {
    /// The parts' names.
    fn names(&self) -> &'static [&'static str];

    /// A response to `command` written as text (a reference answer, a scenario's `expect`)
    /// in its framed form. By default `!` lines are tags and the rest is the return value;
    /// a dialect whose calls also print says which lines are printed.
    fn split(&self, _command: &str, text: &str) -> Response {
        Response::from_text(text)
    }

    /// The named parts of a response to `command`. An `!error` is never a part: it is
    /// judged by every scenario.
    fn parts(&self, command: &str, response: &Response) -> Vec<Part>;
}

/// A dialect's [`ResponseParts`] as its names and two functions.
pub struct PartsTable {
    pub names: &'static [&'static str],
    pub split: fn(command: &str, text: &str) -> Response,
    pub parts: fn(command: &str, response: &Response) -> Vec<Part>,
}

impl ResponseParts for PartsTable {
    fn names(&self) -> &'static [&'static str] {
        self.names
    }

    fn split(&self, command: &str, text: &str) -> Response {
        (self.split)(command, text)
    }

    fn parts(&self, command: &str, response: &Response) -> Vec<Part> {
        (self.parts)(command, response)
    }
}

/// A response's two parts where a dialect names no others: what the call printed and what it
/// returned.
pub fn printed_and_value(_command: &str, response: &Response) -> Vec<Part> {
    vec![
        Part::new("printed", response.printed.clone()),
        Part::new("value", response.value.clone().unwrap_or_default()),
    ]
}

/// Where a dialect comes from. A variant carries what its game made of the variant file, so
/// the game answers it from the value, never by looking its name up.
#[derive(Clone, Copy)]
pub enum Origin {
    BuiltIn,
    Variant {
        /// The built-in dialect it derives from.
        base: &'static Dialect,
        /// The game's reading of the variant's keys ([`variant::Derived::data`]).
        data: &'static (dyn Any + Send + Sync),
    },
}

impl Dialect {
    /// The built-in dialect this one is: itself, or the base of a variant.
    pub fn base(&self) -> &Dialect {
        match self.origin {
            Origin::BuiltIn => self,
            Origin::Variant { base, .. } => base,
        }
    }

    /// The names of the parts its responses have, for scenarios' `judge` key; empty for a
    /// dialect whose output is judged whole.
    pub fn part_names(&self) -> &'static [&'static str] {
        self.parts.map_or(&[], |parts| parts.names())
    }

    /// A response to `command` written as text, in its framed form (see
    /// [`ResponseParts::split`]).
    pub fn split_response(&self, command: &str, text: &str) -> Response {
        match self.parts {
            Some(parts) => parts.split(command, text),
            None => Response::from_text(text),
        }
    }

    /// The named parts of a response to `command`: by default its printed text and its
    /// return value.
    pub fn response_parts(&self, command: &str, response: &Response) -> Vec<Part> {
        match self.parts {
            Some(parts) => parts.parts(command, response),
            None => printed_and_value(command, response),
        }
    }

    /// Whether this dialect is a course's variant.
    pub fn is_variant(&self) -> bool {
        matches!(self.origin, Origin::Variant { .. })
    }

    /// The game's reading of a variant's keys, as the type the game made; `None` for a
    /// built-in dialect, or a variant some other dialect's code made.
    pub fn variant_data<T: 'static>(&self) -> Option<&'static T> {
        match self.origin {
            Origin::BuiltIn => None,
            Origin::Variant { data, .. } => data.downcast_ref(),
        }
    }

    /// What execution lays out to start a submission of this dialect of `game`.
    pub fn layout(&self, game: &dyn Game) -> Layout {
        Layout {
            game: game.name(),
            dialect: self.name,
            entry_file: self.entry_file,
            python: self.python,
            audience: Secrecy::default(),
        }
    }
}

/// Every field but `session`, whose address changes from run to run: a dialect's debug text
/// is part of a scenario's fingerprint (a stored result is reused only for the same one).
impl fmt::Debug for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dialect")
            .field("name", &self.name)
            .field("protocol", &self.protocol)
            .field("handout", &self.handout)
            .field("entry_file", &self.entry_file)
            .field("defines", &self.defines)
            .field("python", &self.python)
            .field("graded_with", &self.graded_with)
            .field("base", &self.base().name)
            .finish_non_exhaustive()
    }
}

/// Scenario-level options for a game (the scenario file's `options` table).
pub type GameOptions = toml::Table;

/// A problem with a scenario's `options` table, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("option `{key}`: {message}")]
pub struct OptionError {
    pub key: String,
    pub message: String,
}

impl OptionError {
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        OptionError {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// What the reference answered to one input: its canonical output and other spellings that
/// graders accept as equally correct (the handouts disagree on some details).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub also_accepted: Vec<String>,
}

impl Reply {
    pub fn new(text: impl Into<String>) -> Self {
        Reply {
            text: text.into(),
            also_accepted: Vec::new(),
        }
    }

    /// The call protocols' answer to a command that failed: one line `!error MESSAGE`.
    pub fn error(message: impl std::fmt::Display) -> Self {
        Reply::new(format!("!error {message}\n"))
    }

    pub fn or(mut self, alternative: impl Into<String>) -> Self {
        let alternative = alternative.into();
        if alternative != self.text && !self.also_accepted.contains(&alternative) {
            self.also_accepted.push(alternative);
        }
        self
    }
}

/// What a game is told about the step where a submission first went wrong.
#[derive(Debug, Clone, Copy)]
pub struct DivergentStep<'a> {
    pub dialect: &'a Dialect,
    pub options: &'a GameOptions,
    /// The lines sent up to and including the divergent step.
    pub sent: &'a [&'a str],
    /// That step's expected and actual output.
    pub expected: &'a str,
    pub actual: &'a str,
    /// The names of the judged parts that differ (`printed`, `value`, ...), for a call
    /// dialect whose responses have parts; empty when the output is judged whole.
    pub differing: &'a [String],
}

impl DivergentStep<'_> {
    /// Whether only what the call printed differs: the call did what the rules say, and a
    /// note about the rule would name one the program kept.
    pub fn only_printing_differs(&self) -> bool {
        !self.differing.is_empty() && self.differing.iter().all(|part| part == "printed")
    }
}

/// One named part of a call's response (a returned board, the printed text, the notation
/// string): what a scenario's `judge` key chooses among.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: &'static str,
    /// The part's text, each line ended by a newline; empty when the response lacks it.
    pub text: String,
}

impl Part {
    pub fn new(name: &'static str, text: impl Into<String>) -> Self {
        Part {
            name,
            text: text.into(),
        }
    }
}

/// A running conversation with a reference engine in one dialect.
pub trait Session {
    /// What the program prints before the first input (empty for call protocols).
    fn opening(&mut self) -> Reply;
    /// The answer to one line of input.
    fn respond(&mut self, line: &str) -> Reply;
    /// True once the program has ended by itself (a program protocol's game is over); input
    /// sent after that is never read.
    fn is_finished(&self) -> bool;

    // Authoring: what scenario generators, recorders and fuzzers may send next. A game that
    // leaves these at their defaults can still be tested, but not authored automatically.

    /// Inputs that are legal moves (or the commands that set up a game) now, for the side to
    /// move; empty once the game is over. For call protocols these are whole commands
    /// (`move 2 RIGHT`, `play_move e2e4`).
    fn legal_inputs(&self) -> Vec<String> {
        Vec::new()
    }

    /// A few plausible illegal attempts now, each with an answer the protocol defines (so a
    /// correct submission answers them exactly as the reference does).
    fn illegal_inputs(&self) -> Vec<String> {
        Vec::new()
    }

    /// Commands that show the state without changing it (`board`, `result`): a scenario
    /// checks a call protocol's position through them.
    fn probe_inputs(&self) -> Vec<String> {
        Vec::new()
    }

    /// True when the last input was refused by the rules (an illegal move, or a command the
    /// reference could not carry out).
    fn rejected(&self) -> bool {
        false
    }

    /// Whether a scenario may send `line` now: the protocol defines what every correct
    /// submission answers. By default, the inputs the game lists above.
    fn is_defined(&self, line: &str) -> bool {
        let listed = |inputs: Vec<String>| inputs.iter().any(|input| input == line);
        listed(self.legal_inputs()) || listed(self.illegal_inputs()) || listed(self.probe_inputs())
    }

    /// The player to move (`White`, `w`), for games with turns: a caller playing one side
    /// knows when its turn comes (a move may take several lines).
    fn to_move(&self) -> Option<&'static str> {
        None
    }

    /// A strong move for the side to move, where the game has a player for it; `None`
    /// leaves the choice to the caller (a random legal input).
    fn strong_input(&self) -> Option<String> {
        None
    }

    /// The position drawn for a person at a terminal, where replies do not show it (call
    /// protocols).
    fn board_view(&self) -> Option<String> {
        None
    }

    // Coverage (`rule_events`): which rules the inputs reach. Off until asked for.

    /// Starts counting the rule events this session's answers reach.
    fn count_rule_events(&mut self) {}

    /// The names of the rule events reached since the last call (each one of its game's
    /// [`Game::rule_events`]); empty while not counting.
    fn take_rule_events(&mut self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// A game: its dialects, its reference sessions and its board reader.
pub trait Game: Sync {
    /// The game's name on the command line and in scenario files (`one-d-chess`).
    fn name(&self) -> &'static str;
    fn dialects(&self) -> &'static [Dialect];
    /// Start a reference session of a dialect of this game (its `session`; a variant's
    /// comes from its game's [`variant::Derive::start_variant`]). Unknown or ill-typed options are
    /// errors.
    fn start(
        &self,
        dialect: &Dialect,
        options: &GameOptions,
    ) -> Result<Box<dyn Session>, OptionError> {
        match dialect.origin {
            Origin::BuiltIn => (dialect.session)(options),
            Origin::Variant { .. } => match self.variants() {
                Some(variants) => variants.start_variant(dialect, options),
                None => Err(OptionError::new(
                    "dialect",
                    format!("{} has no variants ({})", self.name(), dialect.name),
                )),
            },
        }
    }
    /// Reads this game's board renderings out of output text.
    fn board_reader(&self) -> &dyn BoardReader;

    /// Rewrites one line of output into the form that is compared, applied alike to expected
    /// and actual output: for answers whose order does not matter (a list of boards compared
    /// as a multiset, say). Unchanged by default.
    fn normalize_line<'a>(&self, _dialect: &Dialect, line: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(line)
    }

    /// The topic of the scenarios that judge `line` (a line of output, without its newline),
    /// where it is a message about one rule that the game prints in every game it plays
    /// (a capture message is about `captures`): every other scenario judges
    /// the game without such lines, so one wrong message costs the scenarios about it, not
    /// every game. A scenario is about a topic when it is tagged so or is the battery family
    /// of that name. None by default: every line is judged everywhere.
    fn judged_apart(&self, _dialect: &Dialect, _line: &str) -> Option<&'static str> {
        None
    }

    /// Notes that explain a divergence in the game's own terms (missing and extra boards,
    /// the position as FEN, ...).
    fn explain(&self, _step: &DivergentStep<'_>) -> Vec<String> {
        Vec::new()
    }

    /// The divergent step's case, for the harness to shorten on the reference and check on
    /// the submission ([`CaseShrink`]); none by default.
    fn shortest_case(&self, _step: &DivergentStep<'_>) -> Option<Box<dyn CaseShrink>> {
        None
    }

    /// Every rule event its reference sessions count, in report order (none by default).
    fn rule_events(&self) -> &'static [RuleEvent] {
        &[]
    }

    /// Whole games against the game's reference players, where the game has them.
    fn match_play(&self) -> Option<&dyn matches::MatchPlay> {
        None
    }

    /// What a course may change of this game's dialects as data (the `variant` module),
    /// where it may change anything.
    fn variants(&self) -> Option<&dyn variant::Derive> {
        None
    }

    /// The built-in dialect of that name (a course's variants are in its
    /// [`variant::Catalogue`]).
    fn dialect(&self, name: &str) -> Option<&'static Dialect> {
        self.dialects().iter().find(|d| d.name == name)
    }
}

impl fmt::Debug for dyn Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub use crate::error::LookupError;

/// The game of that name, or an error listing the games.
pub fn lookup(name: &str) -> Result<&'static dyn Game, LookupError> {
    find(name).ok_or_else(|| LookupError::Game {
        name: name.to_string(),
        known: names().join(", "),
    })
}

/// The game of that name.
pub fn find(name: &str) -> Option<&'static dyn Game> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// All game names, for messages.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.name()).collect()
}

/// Rejects any key of `options` not in `known`, so a typo never passes silently.
pub fn check_option_keys(options: &GameOptions, known: &[&str]) -> Result<(), OptionError> {
    match options.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(key) => Err(OptionError::new(
            key.clone(),
            if known.is_empty() {
                "this game takes no options".to_string()
            } else {
                format!("unknown option; expected one of {}", known.join(", "))
            },
        )),
    }
}

/// Reads a boolean option (false when absent).
pub fn bool_option(options: &GameOptions, key: &str) -> Result<bool, OptionError> {
    match options.get(key) {
        None => Ok(false),
        Some(toml::Value::Boolean(b)) => Ok(*b),
        Some(other) => Err(OptionError::new(
            key,
            format!("expected true or false, found {}", other.type_str()),
        )),
    }
}
