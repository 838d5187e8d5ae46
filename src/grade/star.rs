//! The names a file takes from the submission's own modules with `from helpers import *`.
//!
//! Routing counts the names each file defines. A student's `one_d_chess.py` that starts with
//! `from old_version import *` and then fixes one function defines, as Python loads it,
//! every name of `old_version.py` as well: counted alone, it looks the poorer fit, and the
//! old helper would be graded in its place. The probe reports each file's star imports
//! without running anything; here they are found among the submission's files and their
//! names added.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::route::Candidate;

/// `candidates` (the files of one submission), each with the names it takes by star imports
/// from the others: a module beside the importing file or at the submission's top (a file,
/// or a package's `__init__.py`), followed through modules that star-import in turn, each
/// module once.
pub fn with_star_imports(candidates: &[Candidate]) -> Vec<Candidate> {
    candidates
        .iter()
        .map(|candidate| {
            let mut names = candidate.definitions.names.clone();
            let mut seen: HashSet<&Path> = HashSet::from([candidate.relative.as_path()]);
            let mut pending: Vec<&Candidate> = vec![candidate];
            while let Some(importer) = pending.pop() {
                for module in &importer.definitions.star_imports {
                    let Some(found) = find(candidates, &importer.relative, module) else {
                        continue;
                    };
                    if seen.insert(found.relative.as_path()) {
                        names.extend(found.definitions.names.iter().cloned());
                        pending.push(found);
                    }
                }
            }
            let mut unique = HashSet::new();
            names.retain(|name| unique.insert(name.clone()));
            let mut taken = candidate.clone();
            taken.definitions.names = names;
            taken
        })
        .collect()
}

/// The file of `candidates` that `module` (dotted, as written after `from`) names for the
/// file at `importer`.
fn find<'a>(candidates: &'a [Candidate], importer: &Path, module: &str) -> Option<&'a Candidate> {
    let path: PathBuf = module.split('.').collect();
    let beside = importer.parent().unwrap_or(Path::new(""));
    let places = [beside.join(&path), path];
    places
        .iter()
        .flat_map(|place| [place.with_extension("py"), place.join("__init__.py")])
        .find_map(|file| candidates.iter().find(|c| c.relative == file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::probe::Definitions;

    fn file(relative: &str, names: &[&str], star: &[&str]) -> Candidate {
        let texts = |list: &[&str]| list.iter().map(|n| n.to_string()).collect();
        Candidate {
            path: PathBuf::from("/class/x").join(relative),
            relative: PathBuf::from(relative),
            definitions: Definitions {
                names: texts(names),
                star_imports: texts(star),
                ..Definitions::default()
            },
        }
    }

    fn names(candidate: &Candidate) -> Vec<&str> {
        candidate
            .definitions
            .names
            .iter()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn a_file_has_the_names_it_takes_from_its_own_modules_by_star_imports() {
        let files = [
            file(
                "one_d_chess.py",
                &["is_valid_move"],
                &["old_version", "math"],
            ),
            file(
                "old_version.py",
                &["create_board", "is_valid_move"],
                &["pkg.rules"],
            ),
            file("pkg/rules.py", &["move_king"], &["old_version"]),
            file("sub/game.py", &["main"], &["helpers"]),
            file("sub/helpers.py", &["move_knight"], &[]),
            file("helpers.py", &["not_this_one"], &[]),
            file("app.py", &[], &["pkg"]),
            file("pkg/__init__.py", &["from_package"], &[]),
        ];
        let taken = with_star_imports(&files);
        // Through a module that star-imports in turn, each name once, cycles followed once;
        // a module that is not the submission's (math) adds nothing.
        assert_eq!(
            names(&taken[0]),
            ["is_valid_move", "create_board", "move_king"]
        );
        assert_eq!(
            names(&taken[1]),
            ["create_board", "is_valid_move", "move_king"]
        );
        // The module beside the importer comes before one at the top.
        assert_eq!(names(&taken[3]), ["main", "move_knight"]);
        // A package is its __init__.py.
        assert_eq!(names(&taken[6]), ["from_package"]);
        // A file that star-imports nothing is as it was.
        assert_eq!(names(&taken[4]), ["move_knight"]);
    }
}
