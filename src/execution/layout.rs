//! The plain description a dialect gives execution: how its Python submissions start, what
//! a target lays out beside a submission for it, and how secret a scenario's results are.
//! Data only, below both the interpreter (`python.rs`) and the targets (`target.rs`) that
//! act on it.

use std::path::Path;
use std::time::Duration;

/// How a Python submission under an interface is started.
#[derive(Debug, Clone, Copy)]
pub enum PythonLaunch {
    /// Run this embedded adapter script, which imports the submission and serves the call
    /// protocol. `call_limit` is the wall-clock time one call may take (far above what a
    /// correct function needs, far below a scenario's limit), so a function that loops or
    /// sleeps is found in that call: `None` where a call may rightly think for long.
    /// `stubs` are importable ahead of the submission's own modules, as a program's are.
    Adapter {
        script: &'static str,
        call_limit: Option<Duration>,
        stubs: Stubs,
    },
    /// Run the submission itself, with these stub modules importable ahead of anything else.
    Program { stubs: Stubs },
}

/// Modules the harness provides in place of ones a handout's course gave its students (its
/// `graphics.py`): (file name, source). A submission graded on the handout's functions alone
/// imports them as its whole program does.
pub type Stubs = &'static [(&'static str, &'static str)];

impl PythonLaunch {
    /// The modules the harness provides beside the submission.
    pub fn stubs(&self) -> Stubs {
        match *self {
            PythonLaunch::Adapter { stubs, .. } | PythonLaunch::Program { stubs } => stubs,
        }
    }
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

/// How many of the folders of `entry_file` (`pychess/logic/chess_logic.py`: `pychess`, then
/// `logic`) `file` sits in, from its own folder up, whatever the file itself is called: 2 for
/// `team/pychess/logic/game_logic.py`, 1 for `team 7/logic/chess_logic.py`, 0 for a file in
/// no such folder or an entry file in no folder.
pub fn folders_in_layout(file: &Path, entry_file: &str) -> usize {
    let folders: Vec<&str> = entry_file.split('/').collect();
    let folders = &folders[..folders.len() - 1];
    let Some(parent) = file.parent() else {
        return 0;
    };
    (parent.components().rev())
        .zip(folders.iter().rev())
        .take_while(|(own, name)| own.as_os_str() == **name)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_folders_a_file_sits_in_are_counted_whatever_it_is_called() {
        let layout = "pychess/logic/chess_logic.py";
        for (file, folders) in [
            ("/class/t/pychess/logic/chess_logic.py", 2),
            ("/class/t/pychess/logic/game_logic.py", 2),
            ("/class/team 7/logic/chess_logic.py", 1),
            ("/class/t/pychess/chess_logic.py", 0),
            ("chess_logic.py", 0),
        ] {
            assert_eq!(
                folders_in_layout(Path::new(file), layout),
                folders,
                "{file}"
            );
        }
        assert_eq!(
            folders_in_layout(Path::new("/a/logic/prog67.py"), "prog67.py"),
            0
        );
    }
}
