//! Which dialect a submission answers and which of its files is graded: the names its code
//! defines decide, the file name is only a hint. Two courses may both call their file
//! `prog67.py`; what the file defines tells them apart.

use std::path::{Path, PathBuf};

use super::probe::{Definitions, LoadError};
use super::star;
use super::submission::Submission;
use crate::games::variant::Catalogue;
use crate::games::{self, Dialect, Origin, Protocol};

/// Most files read in one submission folder (an upload of a whole virtualenv stops here).
const MAX_FILES: usize = 300;
/// How similar (0 to 1, ignoring case and underscores) a defined name must be to a required
/// one to be suggested for it.
const SIMILAR: f64 = 0.7;

/// A `.py` file of a submission that could be the one graded.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub path: PathBuf,
    /// Its path inside the submission (the file name for a one-file submission).
    pub relative: PathBuf,
    pub definitions: Definitions,
}

/// How a submission is graded.
#[derive(Debug, Clone)]
pub enum Routing {
    Graded(Route),
    /// The file to grade does not load: the submission scores 0 under `dialect`.
    DoesNotLoad {
        dialect: &'static Dialect,
        error: LoadError,
    },
    /// Nothing to grade, and why.
    NotGraded {
        dialect: Option<&'static Dialect>,
        why: String,
    },
    /// Too large to grade ([`super::extent`]): none of it is read, and it scores 0.
    TooLarge {
        dialect: Option<&'static Dialect>,
        why: super::extent::Oversize,
    },
    /// The grader could not look at it (the interpreter that reads its files failed): not
    /// the submission's fault, it needs a re-run.
    GraderFailed {
        why: String,
    },
}

/// The dialect and file a submission is graded as.
#[derive(Debug, Clone)]
pub struct Route {
    pub dialect: &'static Dialect,
    /// The file graded, inside the submission.
    pub file: String,
    /// What the target copies and runs: a file, or a folder with `entry` inside it.
    pub target: PathBuf,
    pub entry: Option<String>,
    /// The student's modules beside a one-file target in their own folder, copied with it.
    pub beside: Vec<PathBuf>,
    /// Required names the file does not define, with the closest it does.
    pub notes: Vec<String>,
    /// A dialect of the same family, not among those graded, that the file answers better.
    pub better: Option<BetterFit>,
    /// The other dialects of its family among those graded that the file answers in full
    /// too, each routed as this one is (none of their own): each is graded as well, and the
    /// better result kept (see [`super::choice`]).
    pub also: Vec<Route>,
}

impl Route {
    /// This route and those it is also graded as, the routed one first.
    pub fn tries(&self) -> impl Iterator<Item = &Route> {
        std::iter::once(self).chain(&self.also)
    }
}

/// A dialect of the graded one's family (its base, a variant of that base) that a file
/// answers better than the one it is graded as: the course may use it.
#[derive(Debug, Clone)]
pub struct BetterFit {
    pub dialect: &'static Dialect,
    /// The names that tell them apart, as a clause: "defines `whos_the_winner`".
    pub why: String,
}

impl BetterFit {
    /// The note a class run gives: the variant, and why.
    pub fn note(&self, file: &str, graded: &Dialect) -> String {
        format!(
            "{file} {}: the course may use {} (graded here as {})",
            self.why, self.dialect.name, graded.name
        )
    }
}

/// True for files that hold tests rather than the solution.
fn is_test_file(relative: &Path) -> bool {
    let name = relative
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let in_tests = relative
        .parent()
        .into_iter()
        .flat_map(Path::components)
        .any(|c| matches!(c.as_os_str().to_str(), Some("test" | "tests")));
    in_tests
        || name.starts_with("test_")
        || name.ends_with("_test.py")
        || matches!(name.as_str(), "test.py" | "tests.py" | "conftest.py")
}

/// The `.py` files of `submission` that may be graded (test files left out; with `entry`,
/// only files whose path ends with it).
pub fn candidates(submission: &Submission, entry: Option<&str>) -> Vec<(PathBuf, PathBuf)> {
    let path = &submission.path;
    if path.is_file() {
        let name = PathBuf::from(path.file_name().unwrap_or(path.as_os_str()));
        return vec![(path.clone(), name)];
    }
    let walk = walkdir::WalkDir::new(path)
        .follow_links(false)
        .max_depth(8)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_dir()
                || !e.file_name().to_string_lossy().starts_with(['.', '_'])
        });
    walk.filter_map(Result::ok)
        // `one_d_chess.PY` runs as `python3 one_d_chess.PY` does, as a file given alone does.
        .filter(|e| {
            e.file_type().is_file()
                && (e.path().extension()).is_some_and(|x| x.eq_ignore_ascii_case("py"))
        })
        .map(|e| {
            let relative = e
                .path()
                .strip_prefix(path)
                .unwrap_or(e.path())
                .to_path_buf();
            (e.path().to_path_buf(), relative)
        })
        .filter(|(_, relative)| match entry {
            Some(entry) => relative.ends_with(entry),
            None => !is_test_file(relative),
        })
        .take(MAX_FILES)
        .collect()
}

/// `candidates` (one submission's files), each with the names it takes from the others by
/// star imports ([`super::star`]).
fn with_star_imports(candidates: &[Candidate]) -> Vec<Candidate> {
    let files: Vec<star::File> = (candidates.iter())
        .map(|c| (c.relative.as_path(), &c.definitions))
        .collect();
    let names = star::names_with_star_imports(&files);
    candidates
        .iter()
        .zip(names)
        .map(|(candidate, mut names)| {
            let mut taken = candidate.clone();
            // A name taken from a file of the submission that does not load is not bound: the
            // import fails (a GUI's `main.py` importing a `chess_logic.py` with a syntax
            // error answers nothing; the file at fault is the one graded and named).
            let broken = |name: &String| {
                let importer = candidate.relative.as_path();
                (candidate.definitions.taken.iter())
                    .filter(|(n, _)| n == name)
                    .filter_map(|(_, module)| star::module_file(&files, importer, module))
                    .any(|(file, definitions)| file != importer && definitions.error.is_some())
            };
            names.retain(|name| !broken(name));
            taken.definitions.names = names;
            taken.definitions.taken = taken_from_own_files(candidate, &files);
            taken
        })
        .collect()
}

/// The names `candidate` takes by `from module import name` from another file of its
/// submission (`files`): a module outside it (the course's, a library) defines no file here
/// that could be graded instead.
fn taken_from_own_files(candidate: &Candidate, files: &[star::File]) -> Vec<(String, String)> {
    let importer = candidate.relative.as_path();
    (candidate.definitions.taken.iter())
        .filter(|(_, module)| {
            star::module_file(files, importer, module).is_some_and(|(file, _)| file != importer)
        })
        .cloned()
        .collect()
}

/// Whether `candidate` binds `name` itself, not only by taking it from another of the
/// submission's files.
fn defines_itself(candidate: &Candidate, name: &str) -> bool {
    candidate.definitions.binds(name) && !candidate.definitions.taken.iter().any(|(n, _)| n == name)
}

/// How well a file fits a dialect; larger is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Fit {
    /// The submission can play the dialect: it reads standard input somewhere where the
    /// dialect is a game typed into a program. A file of functions that only shares a
    /// program's names (project5's functions with `print_board` and a test `main`) is not
    /// that program, however many names it shares.
    plays: bool,
    /// Defines every required name.
    complete: bool,
    /// How many required names, when all are defined: of two dialects a file answers in
    /// full, the one asking for more (a variant that adds `whos_the_winner`) is its own.
    specific: usize,
    /// Answers in full at the path the handout names (`pychess/logic/chess_logic.py`): the
    /// file a course's own harness imports, even where it only re-exports a class kept in
    /// another of the team's files (`from .core.game import ChessLogic`).
    at_entry: bool,
    /// How many required names it defines itself, when all are defined: of two files
    /// answering in full, the one defining the class beats a script that imports it from
    /// there (a GUI's `main.py`). Names a file takes from a helper still make it complete.
    own: usize,
    /// The share below when it is at least half: most of a dialect's names outweigh the
    /// file name, a few names shared by chance (`move`) do not.
    most: usize,
    /// 2: the path ends with the dialect's entry file; 1: the file name is the entry's.
    hint: u8,
    /// Share of the required names defined, in thousandths.
    share: usize,
    /// Shallower files first.
    shallow: std::cmp::Reverse<usize>,
}

fn fit(dialect: &Dialect, candidate: &Candidate, reads_stdin: bool) -> Fit {
    let defined = dialect
        .defines
        .iter()
        .filter(|n| candidate.definitions.binds(n))
        .count();
    let entry = Path::new(dialect.entry_file);
    // The whole path counts: a team's `pychess/` folder given alone holds `logic/chess_logic.py`.
    let hint = if candidate.relative.ends_with(entry) || whole_path(candidate).ends_with(entry) {
        2
    } else if candidate.relative.file_name() == entry.file_name() {
        1
    } else {
        0
    };
    let share = (defined * 1000)
        .checked_div(dialect.defines.len())
        .unwrap_or(0);
    let all = defined == dialect.defines.len();
    Fit {
        plays: reads_stdin || dialect.protocol != Protocol::Program,
        complete: all && !dialect.defines.is_empty(),
        specific: if all { defined } else { 0 },
        at_entry: all && hint == 2 && entry.components().count() > 1,
        own: if all {
            (dialect.defines.iter())
                .filter(|n| defines_itself(candidate, n))
                .count()
        } else {
            0
        },
        most: if share >= 500 { share } else { 0 },
        hint,
        share,
        shallow: std::cmp::Reverse(candidate.relative.components().count()),
    }
}

/// The candidate's whole path, as the user named its folders (`.` given from inside
/// `pychess/logic/` is that folder): worked out from the path and the working folder, with
/// no look at the file system, as routing asks it for every dialect.
fn whole_path(candidate: &Candidate) -> PathBuf {
    std::path::absolute(&candidate.path).unwrap_or_else(|_| candidate.path.clone())
}

/// Whether any of a submission's files reads standard input (a program may read its moves
/// in a helper module).
fn reads_stdin(candidates: &[Candidate]) -> bool {
    candidates.iter().any(|c| c.definitions.reads_stdin)
}

fn load_error(candidate: &Candidate) -> Option<LoadError> {
    let (line, message) = candidate.definitions.error.clone()?;
    Some(LoadError {
        file: candidate.relative.display().to_string(),
        line,
        message,
    })
}

/// Why `candidate`, a Python 2 program, does not load as `dialect`, whose handout asks for
/// Python 3 (elsewhere it runs translated by 2to3).
fn python2_refused(dialect: &Dialect, candidate: &Candidate) -> Option<LoadError> {
    if !dialect.asks_python3 {
        return None;
    }
    python3_error(
        candidate,
        "the file is Python 2; the handout asks for Python 3",
    )
}

/// The error Python 3 gives on `candidate` where it is a Python 2 program, and `why` that
/// counts.
fn python3_error(candidate: &Candidate, why: &str) -> Option<LoadError> {
    let (line, message) = candidate.definitions.python2.clone()?;
    Some(LoadError {
        file: candidate.relative.display().to_string(),
        line,
        message: format!("{message} ({why})"),
    })
}

/// Chooses the dialect and file of a submission among `dialects`.
pub fn route(
    submission: &Submission,
    candidates: &[Candidate],
    dialects: &[&'static Dialect],
    entry: Option<&str>,
    variants: &Catalogue,
) -> Routing {
    let Some(&first) = dialects.first() else {
        return Routing::NotGraded {
            dialect: None,
            why: "no valid scenario names a dialect to grade it under".to_string(),
        };
    };
    let candidates = with_star_imports(candidates);
    let candidates = candidates.as_slice();
    if candidates.is_empty() {
        let why = match entry {
            Some(entry) => format!("no {entry} in this folder"),
            None => "no Python file (.py) to grade".to_string(),
        };
        return Routing::NotGraded {
            dialect: (dialects.len() == 1).then(|| dialects[0]),
            why,
        };
    }
    let reads_stdin = reads_stdin(candidates);
    let mut best: Option<(Fit, &'static Dialect, &Candidate)> = None;
    for &dialect in dialects {
        for candidate in candidates {
            let fit = fit(dialect, candidate, reads_stdin);
            // A name or two shared by chance (`main`, `move`) never picks a dialect alone.
            let eligible = fit.most > 0 || fit.hint > 0;
            if eligible && best.as_ref().is_none_or(|(b, _, _)| fit > *b) {
                best = Some((fit, dialect, candidate));
            }
        }
    }
    let (dialect, chosen) = match best {
        Some((_, dialect, chosen)) => (dialect, chosen),
        None => {
            // Nothing names a dialect: a file that does not load may be why; otherwise a
            // lone file under a lone dialect is graded as it is.
            if let Some(error) = candidates.iter().find_map(load_error) {
                return Routing::DoesNotLoad {
                    dialect: first,
                    error,
                };
            }
            match (dialects, candidates) {
                ([only], [file]) => (*only, file),
                _ => return not_graded(candidates, dialects),
            }
        }
    };
    let loads = load_error(chosen)
        .or_else(|| broken_import(chosen, candidates))
        .or_else(|| python2_refused(dialect, chosen));
    if let Some(error) = loads {
        return Routing::DoesNotLoad { dialect, error };
    }
    let also = also_fits(dialect, chosen, dialects, reads_stdin)
        .into_iter()
        .filter(|other| python2_refused(other, chosen).is_none())
        .map(|other| routed(submission, chosen, other, candidates, dialects, variants))
        .collect();
    Routing::Graded(Route {
        also,
        ..routed(submission, chosen, dialect, candidates, dialects, variants)
    })
}

/// Most dialects a file is graded as besides the one it is routed to.
const MAX_ALSO: usize = 3;

/// The other dialects of `routed`'s family among `dialects` that `chosen` answers in full, as
/// it answers `routed` (none when it does not), best fitting first, at most [`MAX_ALSO`].
fn also_fits(
    routed: &'static Dialect,
    chosen: &Candidate,
    dialects: &[&'static Dialect],
    reads_stdin: bool,
) -> Vec<&'static Dialect> {
    if !fit(routed, chosen, reads_stdin).complete {
        return Vec::new();
    }
    let mut others: Vec<(Fit, &'static Dialect)> = dialects
        .iter()
        .filter(|d| !std::ptr::eq(**d, routed) && std::ptr::eq(d.base(), routed.base()))
        .map(|d| (fit(d, chosen, reads_stdin), *d))
        .filter(|(fit, _)| fit.complete && fit.plays)
        .collect();
    others.sort_by_key(|(fit, _)| std::cmp::Reverse(*fit));
    others.into_iter().take(MAX_ALSO).map(|(_, d)| d).collect()
}

/// `chosen` (of the submission's `candidates`) graded as `dialect`: what to run, and the
/// notes for it.
fn routed(
    submission: &Submission,
    chosen: &Candidate,
    dialect: &'static Dialect,
    candidates: &[Candidate],
    dialects: &[&'static Dialect],
    variants: &Catalogue,
) -> Route {
    let (target, entry) = target_of(submission, chosen, dialect);
    let mut notes: Vec<String> = variant_note(dialect, chosen).into_iter().collect();
    if chosen.definitions.python2.is_some() {
        notes.push(format!(
            "{} is Python 2: it runs translated to Python 3 by 2to3 (`/` between two \
             integers still gives an integer, as in Python 2)",
            chosen.relative.display()
        ));
    }
    notes.extend(entry_passed_over(dialect, chosen, candidates));
    notes.extend(missing_names(dialect, chosen));
    let better = better_fit(dialect, chosen, variants)
        .filter(|b| !dialects.iter().any(|d| std::ptr::eq(*d, b.dialect)));
    Route {
        dialect,
        file: chosen.relative.display().to_string(),
        beside: modules_beside(submission, chosen),
        target,
        entry,
        notes,
        better,
        also: Vec::new(),
    }
}

/// The dialect of `graded`'s family that `chosen` answers in full where it does not answer
/// `graded` in full, or answers asking for more names (a variant that adds a function).
pub fn better_fit(
    graded: &'static Dialect,
    chosen: &Candidate,
    variants: &Catalogue,
) -> Option<BetterFit> {
    let defined = |n: &&str| chosen.definitions.binds(n);
    let complete = |d: &Dialect| !d.defines.is_empty() && d.defines.iter().all(defined);
    let graded_complete = complete(graded);
    let better = variants
        .family(graded)
        .into_iter()
        .filter(|d| !std::ptr::eq(*d, graded) && complete(d))
        .filter(|d| !graded_complete || d.defines.len() > graded.defines.len())
        .max_by_key(|d| d.defines.len())?;
    let quoted = |list: Vec<&str>| {
        list.iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let extra: Vec<&str> = better
        .defines
        .iter()
        .copied()
        .filter(|n| !graded.defines.contains(n))
        .collect();
    let lacking: Vec<&str> = graded
        .defines
        .iter()
        .copied()
        .filter(|n| !defined(n) && !better.defines.contains(n))
        .collect();
    let why = if lacking.is_empty() {
        format!("defines {}", quoted(extra))
    } else {
        format!("does not define {}", quoted(lacking))
    };
    Some(BetterFit {
        dialect: better,
        why,
    })
}

/// A module of the submission that the chosen file imports and that does not load.
fn broken_import(chosen: &Candidate, candidates: &[Candidate]) -> Option<LoadError> {
    candidates
        .iter()
        .filter(|c| {
            let stem = c.relative.file_stem().map(|s| s.to_string_lossy());
            stem.is_some_and(|s| chosen.definitions.imports.iter().any(|i| *i == s))
        })
        .find_map(|helper| {
            // A Python 2 file's helper modules import translated as it runs (a Python 3
            // file's as they are).
            let translated = chosen.definitions.python2.is_some();
            load_error(helper).or_else(|| {
                let why = "a helper module in Python 2, imported by a Python 3 file";
                if translated {
                    None
                } else {
                    python3_error(helper, why)
                }
            })
        })
}

fn not_graded(candidates: &[Candidate], dialects: &[&'static Dialect]) -> Routing {
    let files: Vec<String> = candidates
        .iter()
        .take(5)
        .map(|c| c.relative.display().to_string())
        .collect();
    let wanted: Vec<String> = dialects
        .iter()
        .map(|d| {
            if d.defines.is_empty() {
                d.entry_file.to_string()
            } else {
                format!("{} ({})", d.defines.join(", "), d.entry_file)
            }
        })
        .collect();
    Routing::NotGraded {
        dialect: (dialects.len() == 1).then(|| dialects[0]),
        why: format!(
            "none of its files ({}) defines what a dialect asks for: {}",
            files.join(", "),
            wanted.join("; or ")
        ),
    }
}

/// What to copy and run for the chosen file: the file of a one-file submission; inside a
/// folder, the file itself when it sits in the dialect's folder layout
/// (`pychess/logic/chess_logic.py`, copied with its package, also when the submission is
/// the `pychess` folder), else its folder with the file
/// as the entry.
/// How many Python files beside a one-file submission in its own folder come with it; past
/// that (a file checked in a crowded folder) only the modules it imports do.
const MAX_BESIDE: usize = 200;

/// The modules a one-file submission in the student's own folder may import from beside it:
/// the Python files there (helpers may import each other), and the folders it imports
/// (packages). None for a submission in a class folder, whose neighbours are other students'.
fn modules_beside(submission: &Submission, chosen: &Candidate) -> Vec<PathBuf> {
    let path = &submission.path;
    let Some(folder) = submission.own_folder_of_file() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Vec::new();
    };
    let imported = |name: &std::ffi::OsStr| {
        let name = Path::new(name).with_extension("");
        chosen
            .definitions
            .imports
            .iter()
            .any(|m| name.as_os_str() == m.as_str())
    };
    let mut files = Vec::new();
    let mut packages = Vec::new();
    for entry in entries.flatten() {
        let (name, candidate) = (entry.file_name(), entry.path());
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if candidate == *path || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if kind.is_dir() && imported(&name) {
            packages.push(candidate);
        } else if kind.is_file() && candidate.extension().is_some_and(|x| x == "py") {
            files.push(candidate);
        }
    }
    files.sort();
    if files.len() > MAX_BESIDE {
        files.retain(|file| file.file_name().is_some_and(imported));
    }
    packages.sort();
    files.extend(packages);
    files
}

fn target_of(
    submission: &Submission,
    chosen: &Candidate,
    dialect: &Dialect,
) -> (PathBuf, Option<String>) {
    if submission.path.is_file() {
        return (submission.path.clone(), None);
    }
    let layout = Path::new(dialect.entry_file);
    // The layout may begin above the submission folder (`pychess/` or `pychess/logic/` handed
    // in alone): the file then runs with its package around it, as when it is given alone.
    let in_layout = chosen.relative.ends_with(layout) || whole_path(chosen).ends_with(layout);
    if layout.components().count() > 1 && in_layout {
        return (chosen.path.clone(), None);
    }
    if let Some((root, entry)) = in_layout_folders(submission, chosen, layout) {
        return (root, Some(entry));
    }
    let folder = chosen
        .path
        .parent()
        .map_or_else(|| submission.path.clone(), Path::to_path_buf);
    let name = chosen
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_string());
    (folder, name)
}

/// A file inside the handout's folders, under its own names (`pychess/logic/game_logic.py`
/// where the layout is `pychess/logic/chess_logic.py`, or a team folder standing for
/// `pychess/` under another name: `team 7/logic/chess_logic.py`): the folder above the
/// innermost of the layout's folders it sits in (never above the submission) and the
/// file's path inside it, so that it runs where its folders put it, its imports
/// (`from logic.utils import`, `from .moves import`) found as in the team's own runs.
fn in_layout_folders(
    submission: &Submission,
    chosen: &Candidate,
    layout: &Path,
) -> Option<(PathBuf, String)> {
    let folders = layout.parent()?.components().rev();
    let own = chosen.relative.parent()?.components().rev();
    let matched = folders.zip(own).take_while(|(a, b)| a == b).count();
    if matched == 0 {
        return None;
    }
    let above = chosen.path.ancestors().nth(matched + 1)?;
    let root = if above.starts_with(&submission.path) {
        above
    } else {
        submission.path.as_path()
    };
    let entry = chosen.path.strip_prefix(root).ok()?;
    Some((root.to_path_buf(), entry.to_str()?.to_string()))
}

/// Why the file graded is not the one the handout names, where the submission has one.
fn entry_passed_over(
    dialect: &Dialect,
    chosen: &Candidate,
    candidates: &[Candidate],
) -> Option<String> {
    let entry = Path::new(dialect.entry_file).file_name()?;
    if chosen.relative.file_name() == Some(entry) {
        return None;
    }
    let named = candidates
        .iter()
        .find(|c| c.relative.file_name() == Some(entry))?;
    Some(format!(
        "graded {}, which defines more of what {} asks for than {}",
        chosen.relative.display(),
        dialect.name,
        named.relative.display()
    ))
}

/// Which variant a submission is graded under, and the names that chose it.
fn variant_note(dialect: &Dialect, chosen: &Candidate) -> Option<String> {
    let Origin::Variant { base, .. } = dialect.origin else {
        return None;
    };
    let own: Vec<String> = dialect
        .defines
        .iter()
        .filter(|n| !base.defines.contains(n))
        .filter(|n| chosen.definitions.binds(n))
        .map(|n| format!("`{n}`"))
        .collect();
    let why = if own.is_empty() {
        String::new()
    } else {
        format!(": {} defines {}", chosen.relative.display(), own.join(", "))
    };
    Some(format!(
        "graded as variant {} of {}{why}",
        dialect.name, base.name
    ))
}

/// A note per required name the file does not define, suggesting the closest it does.
fn missing_names(dialect: &'static Dialect, chosen: &Candidate) -> Vec<String> {
    let names = &chosen.definitions.names;
    dialect
        .defines
        .iter()
        .enumerate()
        .filter(|(_, wanted)| !chosen.definitions.binds(wanted))
        .map(|(index, wanted)| {
            let file = chosen.relative.display();
            match suggestion(dialect, index, names) {
                Some(hint) => format!("{file} does not define `{wanted}` (did you mean {hint}?)"),
                None => format!("{file} does not define `{wanted}`"),
            }
        })
        .collect()
}

fn simplified(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The defined name closest to the dialect's `index`-th required name: the one another
/// dialect of the same game uses in its place (its names renamed one for one), or one
/// spelled nearly the same.
fn suggestion(dialect: &'static Dialect, index: usize, names: &[String]) -> Option<String> {
    let game = games::REGISTRY
        .iter()
        .find(|g| g.dialects().iter().any(|d| std::ptr::eq(d, dialect)))?;
    let sibling = game.dialects().iter().find_map(|other| {
        let name = other.defines.get(index)?;
        // A renamed interface: the same number of names, none in common, in the same order.
        let parallel = !std::ptr::eq(other, dialect)
            && other.defines.len() == dialect.defines.len()
            && !other.defines.iter().any(|n| dialect.defines.contains(n));
        (parallel && names.iter().any(|n| n == name))
            .then(|| format!("`{name}`, the {} dialect's name for it", other.name))
    });
    sibling.or_else(|| {
        let wanted = simplified(dialect.defines[index]);
        names
            .iter()
            .map(|n| {
                (
                    strsim::normalized_damerau_levenshtein(&wanted, &simplified(n)),
                    n,
                )
            })
            .filter(|(score, _)| *score >= SIMILAR)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, n)| format!("`{n}`"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialect(game: &str, name: &str) -> &'static Dialect {
        let game = games::find(game).unwrap();
        Catalogue::bundled().dialect(game, name).unwrap()
    }

    fn candidate(relative: &str, names: &[&str], error: Option<(usize, &str)>) -> Candidate {
        Candidate {
            path: PathBuf::from("/class/x").join(relative),
            relative: PathBuf::from(relative),
            definitions: Definitions {
                names: names.iter().map(|n| n.to_string()).collect(),
                variables: Vec::new(),
                error: error.map(|(l, m)| (l, m.to_string())),
                ..Definitions::default()
            },
        }
    }

    fn folder() -> Submission {
        Submission {
            id: "x".into(),
            path: PathBuf::from("/class/x"),
            own_folder: false,
        }
    }

    #[test]
    fn the_names_decide_between_two_files_of_one_name() {
        let (ecs10, hexapawn) = (
            dialect("minichess", "ecs10"),
            dialect("minichess", "hexapawn"),
        );
        let both = [ecs10, hexapawn];
        let hex = candidate("prog67.py", &["generateMoves", "chooseBestMove"], None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[hex], &both, None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "hexapawn");
        assert_eq!(chosen.entry.as_deref(), Some("prog67.py"));
        assert!(chosen.notes.is_empty());
        let ecs = candidate("prog67.py", &["move_maker", "move_chooser", "helper"], None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[ecs], &both, None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "ecs10");
    }

    #[test]
    fn a_name_shared_by_chance_does_not_outweigh_the_file_name() {
        let (csc110, pown) = (
            dialect("one-d-chess", "csc110"),
            dialect("pown-chess", "pown"),
        );
        let script = candidate("pown-chess.py", &["display_board", "move"], None);
        let Routing::Graded(chosen) = super::route(
            &folder(),
            &[script],
            &[csc110, pown],
            None,
            Catalogue::bundled(),
        ) else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "pown");
        let p5 = dialect("one-d-chess", "project5");
        let most: Vec<&str> = p5.defines[1..].to_vec();
        let misnamed = candidate("chess.py", &most, None);
        let Routing::Graded(chosen) = super::route(
            &folder(),
            &[misnamed],
            &[csc110, p5],
            None,
            Catalogue::bundled(),
        ) else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "project5");
    }

    #[test]
    fn a_variable_the_handout_names_routes_as_a_function_does() {
        let (p5, pown) = (
            dialect("one-d-chess", "project5"),
            dialect("pown-chess", "pown"),
        );
        let dialects = [dialect("chess", "ecs198f"), p5, pown];
        let graded = |file: Candidate| match super::route(
            &folder(),
            &[file],
            &dialects,
            None,
            Catalogue::bundled(),
        ) {
            Routing::Graded(route) => route,
            other => panic!("{other:?}"),
        };
        let with_variables = |mut file: Candidate, variables: &[&str]| {
            file.definitions.variables = variables.iter().map(|n| n.to_string()).collect();
            file
        };
        // `game_board = {}` is bound at the top level, not defined by a def.
        let program = candidate("PownChess.py", &["display_board", "moves_remaining"], None);
        let chosen = graded(with_variables(program, &["rows", "game_board"]));
        assert_eq!(chosen.dialect.name, "pown");
        assert!(chosen.notes.is_empty(), "{:?}", chosen.notes);
        // Most of the names without the file name route it; a variable is never offered
        // for a missing function.
        let partial = candidate("pown_chess.py", &["display_board"], None);
        let chosen = graded(with_variables(partial, &["game_board", "moves_remainin"]));
        assert_eq!(chosen.dialect.name, "pown");
        assert_eq!(
            chosen.notes,
            ["pown_chess.py does not define `moves_remaining`"]
        );
        // A file answering another dialect in full keeps it, whatever pown names it binds.
        let both = [p5.defines, &["display_board"]].concat();
        let one_d = candidate("one_d_chess.py", &both, None);
        let chosen = graded(with_variables(one_d, &["game_board"]));
        assert_eq!(chosen.dialect.name, "project5");
    }

    #[test]
    fn a_folder_grades_the_file_that_defines_the_names() {
        let p5 = dialect("one-d-chess", "project5");
        let files = [
            candidate("helpers.py", &["draw"], None),
            candidate("my chess (final).py", p5.defines, None),
        ];
        let Routing::Graded(chosen) =
            super::route(&folder(), &files, &[p5], None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.file, "my chess (final).py");
        assert_eq!(chosen.target, PathBuf::from("/class/x"));
    }

    #[test]
    fn the_file_defining_the_names_beats_one_importing_them_from_it() {
        let chess = dialect("chess", "ecs198f");
        let names = chess.defines;
        let mut script = candidate("pychess/main.py", names, Some((4, "no pygame")));
        script.definitions.taken = (names.iter())
            .map(|n| (n.to_string(), "logic.game_logic".to_string()))
            .collect();
        let files = [
            script,
            candidate("pychess/logic/game_logic.py", names, None),
        ];
        let Routing::Graded(chosen) =
            super::route(&folder(), &files, &[chess], None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.file, "pychess/logic/game_logic.py");
        // Taken from a module outside the submission, a name is the file's own.
        let mut outside = files[0].clone();
        outside.definitions.error = None;
        for (_, module) in &mut outside.definitions.taken {
            *module = "course_logic".to_string();
        }
        let files = [outside, files[1].clone()];
        let Routing::Graded(chosen) =
            super::route(&folder(), &files, &[chess], None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.file, "pychess/main.py");
    }

    #[test]
    fn a_file_that_does_not_load_is_one_finding() {
        let ecs10 = dialect("minichess", "ecs10");
        let broken = candidate("prog67.py", &[], Some((3, "SyntaxError: invalid syntax")));
        match super::route(&folder(), &[broken], &[ecs10], None, Catalogue::bundled()) {
            Routing::DoesNotLoad { error, .. } => {
                assert_eq!(
                    error.to_string(),
                    "prog67.py:3: SyntaxError: invalid syntax"
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_name_suggests_the_closest() {
        let ecs10 = dialect("minichess", "ecs10");
        let hex = candidate("prog67.py", &["generateMoves", "move_chooser"], None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[hex], &[ecs10], None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(
            chosen.notes,
            ["prog67.py does not define `move_maker` (did you mean `generateMoves`, the hexapawn dialect's name for it?)"]
        );
        let p5 = dialect("one-d-chess", "project5");
        let names: Vec<&str> = p5
            .defines
            .iter()
            .map(|n| if *n == "move_king" { "moveKing" } else { n })
            .collect();
        let typo = candidate("one_d_chess.py", &names, None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[typo], &[p5], None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(
            chosen.notes,
            ["one_d_chess.py does not define `move_king` (did you mean `moveKing`?)"]
        );
    }

    #[test]
    fn of_two_dialects_answered_in_full_the_one_asking_for_more_wins() {
        let p5 = dialect("one-d-chess", "project5");
        let fall = dialect("one-d-chess", "project5-fall2023");
        let both = [p5, fall];
        let later = candidate("one_d_chess.py", p5.defines, None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[later], &both, None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "project5");
        assert!(chosen.notes.is_empty());
        assert!(chosen.also.is_empty());
        let earlier = candidate("one_d_chess.py", fall.defines, None);
        let Routing::Graded(chosen) =
            super::route(&folder(), &[earlier], &both, None, Catalogue::bundled())
        else {
            panic!("not graded")
        };
        assert_eq!(chosen.dialect.name, "project5-fall2023");
        assert_eq!(
            chosen.notes,
            ["graded as variant project5-fall2023 of project5: one_d_chess.py defines `whos_the_winner`"]
        );
        // It answers project5 in full too: graded as that as well, with its own notes.
        let names: Vec<&str> = chosen.tries().map(|r| r.dialect.name).collect();
        assert_eq!(names, ["project5-fall2023", "project5"]);
        assert!(chosen.also[0].notes.is_empty() && chosen.also[0].also.is_empty());
        // Another game's dialect is no alternative, nor is a dialect the file half answers.
        let csc110 = dialect("one-d-chess", "csc110");
        let Routing::Graded(chosen) = super::route(
            &folder(),
            &[candidate("one_d_chess.py", fall.defines, None)],
            &[fall, csc110, dialect("minichess", "ecs10")],
            None,
            Catalogue::bundled(),
        ) else {
            panic!("not graded")
        };
        assert!(chosen.also.is_empty());
    }

    #[test]
    fn test_files_are_not_candidates() {
        for (path, test) in [
            ("test_chess.py", true),
            ("chess_test.py", true),
            ("tests/helpers.py", true),
            ("conftest.py", true),
            ("contest.py", false),
            ("prog67.py", false),
        ] {
            assert_eq!(is_test_file(Path::new(path)), test, "{path}");
        }
    }
}
