//! The names a file takes from the submission's own modules with `from helpers import *`.
//!
//! Routing counts the names each file defines. A student's `one_d_chess.py` that starts with
//! `from old_version import *` and then fixes one function defines, as Python loads it,
//! every name of `old_version.py` as well: counted alone, it looks the poorer fit, and the
//! old helper would be graded in its place. The probe reports each file's star imports
//! (absolute ones: a relative one fails in a file loaded as a top-level module) and literal
//! `__all__` without running anything; here they are found among the submission's files and
//! the names a star import takes added.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::probe::Definitions;

/// One file of a submission: its path inside the submission, and what it defines.
pub type File<'a> = (&'a Path, &'a Definitions);

/// The names each of `files` (those of one submission) defines with what it takes by star
/// imports from the others: a module beside the importing file or at the submission's top
/// (a file, or a package's `__init__.py`), followed through modules that star-import in
/// turn, each module once. In the order of `files`, each name once.
pub fn names_with_star_imports(files: &[File]) -> Vec<Vec<String>> {
    files
        .iter()
        .map(|&(relative, definitions)| {
            let mut names = definitions.names.clone();
            let mut seen: HashSet<&Path> = HashSet::from([relative]);
            let mut pending: Vec<File> = vec![(relative, definitions)];
            while let Some((importer, imports)) = pending.pop() {
                for module in &imports.star_imports {
                    let Some(found) = find(files, importer, module) else {
                        continue;
                    };
                    if seen.insert(found.0) {
                        names.extend(taken_from(found.1));
                        pending.push(found);
                    }
                }
            }
            let mut unique = HashSet::new();
            names.retain(|name| unique.insert(name.clone()));
            names
        })
        .collect()
}

/// What `import *` takes of a module's names: those of its `__all__`, else those that do not
/// start with `_`.
fn taken_from(module: &Definitions) -> impl Iterator<Item = String> + '_ {
    let taken = move |name: &&String| match &module.exports {
        Some(exports) => exports.contains(*name),
        None => !name.starts_with('_'),
    };
    module.names.iter().filter(taken).cloned()
}

/// The file of `files` that `module` (dotted, as written after `from`) names for the file
/// at `importer`.
fn find<'a>(files: &[File<'a>], importer: &Path, module: &str) -> Option<File<'a>> {
    let path: PathBuf = module.split('.').collect();
    let beside = importer.parent().unwrap_or(Path::new(""));
    [beside.join(&path), path]
        .iter()
        .find_map(|place| file_at(files, place))
}

/// The file of `files` that `written` (the module of a `from` import, with its dots when
/// relative) names for the file at `importer`: a relative module from the importer's folder,
/// one folder up per dot past the first; an absolute one as a star import's is found.
pub fn module_file<'a>(files: &[File<'a>], importer: &Path, written: &str) -> Option<File<'a>> {
    let module = written.trim_start_matches('.');
    let dots = written.len() - module.len();
    if dots == 0 {
        return find(files, importer, module);
    }
    // `from . import x` takes a module, not a name a file defines.
    if module.is_empty() {
        return None;
    }
    let folder = importer.ancestors().nth(dots)?;
    file_at(files, &folder.join(module.split('.').collect::<PathBuf>()))
}

/// The module file or package of `files` at `place` (a path without extension).
fn file_at<'a>(files: &[File<'a>], place: &Path) -> Option<File<'a>> {
    [place.with_extension("py"), place.join("__init__.py")]
        .iter()
        .find_map(|file| {
            files
                .iter()
                .copied()
                .find(|(relative, _)| *relative == file)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definitions(names: &[&str], star: &[&str]) -> Definitions {
        let texts = |list: &[&str]| list.iter().map(|n| n.to_string()).collect();
        Definitions {
            names: texts(names),
            star_imports: texts(star),
            ..Definitions::default()
        }
    }

    #[test]
    fn a_file_has_the_names_it_takes_from_its_own_modules_by_star_imports() {
        let given = [
            (
                "one_d_chess.py",
                definitions(&["is_valid_move"], &["old_version", "math"]),
            ),
            (
                "old_version.py",
                definitions(&["create_board", "is_valid_move"], &["pkg.rules"]),
            ),
            (
                "pkg/rules.py",
                definitions(&["move_king"], &["old_version"]),
            ),
            ("sub/game.py", definitions(&["main"], &["helpers"])),
            ("sub/helpers.py", definitions(&["move_knight"], &[])),
            ("helpers.py", definitions(&["not_this_one"], &[])),
            ("app.py", definitions(&[], &["pkg"])),
            ("pkg/__init__.py", definitions(&["from_package"], &[])),
            ("uses_all.py", definitions(&[], &["exports"])),
            (
                "exports.py",
                Definitions {
                    exports: Some(vec!["shown".to_string()]),
                    ..definitions(&["shown", "kept_back"], &[])
                },
            ),
            ("private.py", definitions(&["_private"], &["sub.helpers"])),
            ("uses_private.py", definitions(&[], &["private"])),
        ];
        let files: Vec<File> = given.iter().map(|(p, d)| (Path::new(*p), d)).collect();
        let names = names_with_star_imports(&files);
        // Through a module that star-imports in turn, each name once, cycles followed once;
        // a module that is not the submission's (math) adds nothing.
        assert_eq!(names[0], ["is_valid_move", "create_board", "move_king"]);
        assert_eq!(names[1], ["create_board", "is_valid_move", "move_king"]);
        // The module beside the importer comes before one at the top.
        assert_eq!(names[3], ["main", "move_knight"]);
        // A package is its __init__.py.
        assert_eq!(names[6], ["from_package"]);
        // A file that star-imports nothing is as it was.
        assert_eq!(names[4], ["move_knight"]);
        // `import *` takes a module's `__all__`, else its names without a leading `_`
        // (and what that module star-imported in turn).
        assert_eq!(names[8], ["shown"]);
        assert_eq!(names[11], ["move_knight"]);
    }

    #[test]
    fn a_from_import_names_a_module_beside_at_the_top_or_up_its_dots() {
        let none = Definitions::default();
        let paths = [
            "pychess/main.py",
            "pychess/logic/game_logic.py",
            "pychess/logic/moves.py",
            "helpers.py",
        ];
        let files: Vec<File> = paths.iter().map(|p| (Path::new(*p), &none)).collect();
        let found = |importer: &str, written: &str| {
            module_file(&files, Path::new(importer), written).map(|(path, _)| path)
        };
        let logic = Some(Path::new("pychess/logic/game_logic.py"));
        assert_eq!(found("pychess/main.py", "logic.game_logic"), logic);
        assert_eq!(found("pychess/logic/moves.py", ".game_logic"), logic);
        assert_eq!(found("pychess/logic/moves.py", "..logic.game_logic"), logic);
        assert_eq!(
            found("pychess/main.py", "helpers"),
            Some(Path::new("helpers.py"))
        );
        assert_eq!(found("pychess/logic/moves.py", "."), None);
        assert_eq!(found("pychess/main.py", "pygame"), None);
    }
}
