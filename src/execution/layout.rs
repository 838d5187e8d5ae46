//! The plain description a dialect gives execution: how its Python submissions start, what
//! a target lays out beside a submission for it, and how secret a scenario's results are.
//! Data only, below both the interpreter (`python.rs`) and the targets (`target.rs`) that
//! act on it.

use std::time::Duration;

/// How a Python submission under an interface is started.
#[derive(Debug, Clone, Copy)]
pub enum PythonLaunch {
    /// Run this embedded adapter script, which imports the submission and serves the call
    /// protocol. `call_limit` is the wall-clock time one call may take (far above what a
    /// correct function needs, far below a scenario's limit), so a function that loops or
    /// sleeps is found in that call: `None` where a call may rightly think for long.
    Adapter {
        script: &'static str,
        call_limit: Option<Duration>,
    },
    /// Run the submission itself, with these stub modules (file name, source) importable
    /// ahead of anything else.
    Program {
        stubs: &'static [(&'static str, &'static str)],
    },
}

/// What a target lays out beside a submission to start it under one dialect of a game: the
/// plain description a dialect gives execution.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// The game's and the dialect's names: the laid-out files are named after them, and a
    /// jail keeps one layout for each pair.
    pub game: &'static str,
    pub dialect: &'static str,
    /// The file name a submission's entry file has in a submission folder.
    pub entry_file: &'static str,
    pub python: PythonLaunch,
    /// How secret the scenario's results are (its visibility). A loaded runner serves
    /// scenarios in rising secrecy only: a hidden scenario's calls never reach a runner that
    /// serves visible ones.
    pub audience: Secrecy,
}

/// How secret a scenario's results are, from 0 (shown to the student now) up. What a
/// scenario leaves in its loaded runner (a record of its calls, kept at import) can reach
/// later scenarios of that runner, so a runner that served a scenario never serves a less
/// secret one: that gets a runner of its own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Secrecy(pub u8);
