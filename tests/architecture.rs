//! The library's layering, read from the source: the top-level modules of `src/` import one
//! another in the order `src/lib.rs` documents, with no cycle, no file imports another that
//! imports it back (however many files lie between), and the modules that run every game alike
//! never name one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One use of another top-level module: where it is, and the path as written.
#[derive(Debug, Clone)]
struct Import {
    file: String,
    line: usize,
    path: String,
}

impl std::fmt::Display for Import {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{} `{}`", self.file, self.line, self.path)
    }
}

/// Every `.rs` file under `dir`, in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The top-level module a file of `src/` belongs to (`None` for the crate roots).
fn top_module(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// `text` without plain `//` comments (doc comments stay: their links are uses too) and
/// without the contents of string literals.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut kept = String::new();
            let mut in_string = false;
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                if in_string {
                    if c == '\\' {
                        chars.next();
                    } else if c == '"' {
                        in_string = false;
                        kept.push(c);
                    }
                    continue;
                }
                if c == '/' && chars.peek() == Some(&'/') {
                    let rest: String = chars.clone().collect();
                    let doc = rest.starts_with("//") || rest.starts_with("/!");
                    if !doc {
                        break;
                    }
                    kept.push(c);
                    kept.extend(chars);
                    break;
                }
                // A quote as a character literal (`'"'`) starts no string.
                if c == '"' && !kept.ends_with('\'') {
                    in_string = true;
                }
                kept.push(c);
            }
            kept
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of each path in the `{ ... }` use group that `group` starts with.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item_start = false;
    let mut word = String::new();
    for c in group.chars() {
        if depth == 1 && at_item_start && (c.is_alphanumeric() || c == '_') {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            heads.push(std::mem::take(&mut word));
            at_item_start = false;
        }
        match c {
            '{' => {
                depth += 1;
                at_item_start = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => at_item_start = true,
            _ => {}
        }
    }
    heads
}

/// Every use of another top-level module in `code`, as (module, byte offset, path written).
fn uses(code: &str, roots: &[&str]) -> Vec<(String, usize, String)> {
    let mut found = Vec::new();
    for root in roots {
        let prefix = format!("{root}::");
        let mut from = 0;
        while let Some(at) = code[from..].find(&prefix) {
            let start = from + at;
            from = start + prefix.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let rest = &code[from..];
            // The path as written: the rest of its line, up to the statement's end.
            let line = &code[start..code[start..].find('\n').map_or(code.len(), |e| start + e)];
            let written = line.split(';').next().unwrap_or(line).trim().to_string();
            if rest.starts_with('{') {
                for head in group_heads(rest) {
                    let written = if written.contains(&head) {
                        written.clone()
                    } else {
                        format!("{written} .. {head} ..")
                    };
                    found.push((head, start, written));
                }
            } else {
                let head: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push((head, start, written));
            }
        }
    }
    found
}

/// The import graph of the top-level modules of `src`: for each module, the modules it uses
/// and where.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, Vec<Import>>> {
    let files = rust_files(src);
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|f| top_module(f.strip_prefix(src).unwrap()))
        .collect();
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<Import>>> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(src).unwrap();
        let Some(from) = top_module(relative) else {
            continue;
        };
        graph.entry(from.clone()).or_default();
        let code = code_of(&fs::read_to_string(file).unwrap());
        // The binary's own modules reach the library through its name.
        for (to, offset, path) in uses(&code, &["crate", "boardgrade"]) {
            if to == from || !tops.contains(&to) {
                continue;
            }
            graph
                .entry(from.clone())
                .or_default()
                .entry(to)
                .or_default()
                .push(Import {
                    file: format!("src/{}", relative.display()),
                    line: code[..offset].matches('\n').count() + 1,
                    path,
                });
        }
    }
    graph
}

/// A cycle through `start`, as its edges with the first import of each, if there is one.
fn cycle_through(
    graph: &BTreeMap<String, BTreeMap<String, Vec<Import>>>,
    start: &str,
) -> Option<Vec<(String, String, Import)>> {
    fn search(
        graph: &BTreeMap<String, BTreeMap<String, Vec<Import>>>,
        start: &str,
        at: &str,
        seen: &mut BTreeSet<String>,
        path: &mut Vec<(String, String, Import)>,
    ) -> bool {
        for (to, imports) in graph.get(at).into_iter().flatten() {
            path.push((at.to_string(), to.clone(), imports[0].clone()));
            if to == start || (seen.insert(to.clone()) && search(graph, start, to, seen, path)) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::new();
    search(graph, start, start, &mut BTreeSet::new(), &mut path).then_some(path)
}

/// Every cycle of the graph, one per module on one, written out edge by edge.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, Vec<Import>>>) -> Vec<String> {
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut found = Vec::new();
    for module in graph.keys() {
        if reported.contains(module) {
            continue;
        }
        if let Some(cycle) = cycle_through(graph, module) {
            let mut text = format!("import cycle through {module}:");
            for (from, to, import) in &cycle {
                reported.insert(from.clone());
                text.push_str(&format!("\n  {from} -> {to}: {import}"));
            }
            found.push(text);
        }
    }
    found
}

/// The layer order `src/lib.rs` documents: each numbered line after `Layers` names the
/// modules of one layer in backquotes, lowest first.
fn documented_layers(lib: &str) -> Vec<BTreeSet<String>> {
    let numbered = |line: &&str| line.trim_start().starts_with(|c: char| c.is_ascii_digit());
    lib.lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .skip_while(|line| !line.trim_start().starts_with("Layers"))
        .skip_while(|line| !numbered(line))
        .take_while(numbered)
        .map(|line| {
            line.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        })
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_top_level_modules_import_one_another_without_a_cycle() {
    let found = cycles(&import_graph(&src()));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The module path of a file of a crate's source folder: `execution/fork/mod.rs` and
/// `execution/fork.rs` are `execution::fork`, the crate roots are the empty path.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str()))
    {
        parts.pop();
    }
    parts
}

/// `code` up to its test module, without doc comments: what the file needs to compile (an
/// intra-doc link to a sibling is no dependency).
fn compiled_code(text: &str) -> String {
    let code = code_of(text);
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path in `code` that starts at `crate`, `super` or `self`, as (byte offset, segments),
/// a use group giving one path per item (`use super::{a, b::C}` gives `super::a`,
/// `super::b`).
fn relative_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for root in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(root) {
            let start = from + at;
            from = start + root.len();
            if code[..start]
                .chars()
                .next_back()
                .is_some_and(|c| ident(c) || c == ':')
            {
                continue;
            }
            let mut segments = vec![root.trim_end_matches(':').to_string()];
            let mut rest = &code[from..];
            loop {
                let word: String = rest.chars().take_while(|&c| ident(c)).collect();
                if word.is_empty() {
                    break;
                }
                rest = &rest[word.len()..];
                segments.push(word);
                match rest.strip_prefix("::") {
                    Some(after) => rest = after,
                    None => break,
                }
            }
            if rest.starts_with('{') {
                for head in group_heads(rest) {
                    let mut path = segments.clone();
                    path.push(head);
                    found.push((start, path));
                }
            } else {
                found.push((start, segments));
            }
        }
    }
    found
}

/// The file a path written in the module `current` names: the deepest module on the path
/// that is a file of `modules`.
fn file_named<'a>(
    modules: &'a BTreeMap<Vec<String>, String>,
    current: &[String],
    path: &[String],
) -> Option<&'a String> {
    let mut base: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            base = current.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            base = current.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    (0..=rest.len()).rev().find_map(|k| {
        let mut module = base.clone();
        module.extend(rest[..k].iter().cloned());
        modules.get(&module)
    })
}

/// The import graph of the files of the crate whose source folder is `root` (the binary's
/// files, under `src/cli`, form a crate of their own with `src/main.rs`): for each file, the
/// files of its crate it uses and where.
fn file_graph(root: &Path) -> BTreeMap<String, BTreeMap<String, Vec<Import>>> {
    let files = rust_files(root);
    let crate_of = |relative: &Path| {
        let first = relative
            .components()
            .next()
            .map(|c| c.as_os_str().to_owned());
        first.is_some_and(|f| f == "cli" || f == "main.rs")
    };
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<Import>>> = BTreeMap::new();
    for binary in [false, true] {
        let members: Vec<&PathBuf> = files
            .iter()
            .filter(|f| crate_of(f.strip_prefix(root).unwrap()) == binary)
            .collect();
        let name = |f: &Path| f.strip_prefix(root).unwrap().display().to_string();
        let modules: BTreeMap<Vec<String>, String> = members
            .iter()
            .map(|f| (module_of(f.strip_prefix(root).unwrap()), name(f)))
            .collect();
        for file in members {
            let from = name(file);
            let code = compiled_code(&fs::read_to_string(file).unwrap());
            let current = module_of(file.strip_prefix(root).unwrap());
            graph.entry(from.clone()).or_default();
            for (offset, path) in relative_paths(&code) {
                let Some(to) = file_named(&modules, &current, &path) else {
                    continue;
                };
                if *to == from {
                    continue;
                }
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to.clone())
                    .or_default()
                    .push(Import {
                        file: from.clone(),
                        line: code[..offset].matches('\n').count() + 1,
                        path: path.join("::"),
                    });
            }
        }
    }
    graph
}

#[test]
fn no_file_imports_another_that_imports_it_back() {
    let found = cycles(&file_graph(&src()));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn a_circle_between_files_is_found_however_it_is_written() {
    // A planted circle of three files, through a use group, `self::` and a nested `super::`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("outer/inner")).unwrap();
    fs::write(root.join("lib.rs"), "pub mod outer;\n").unwrap();
    fs::write(
        root.join("outer/mod.rs"),
        "pub mod inner;\nmod side;\nuse self::inner::{deep::Thing, other};\n",
    )
    .unwrap();
    fs::write(root.join("outer/inner/mod.rs"), "pub mod deep;\n").unwrap();
    fs::write(
        root.join("outer/inner/deep.rs"),
        "pub struct Thing;\nfn f() -> super::super::side::Side { todo!() }\n",
    )
    .unwrap();
    fs::write(
        root.join("outer/side.rs"),
        "/// Not [`crate::outer`]: a doc link is no use.\npub struct Side;\nfn g() { crate::outer::go(); }\n\
         #[cfg(test)]\nmod tests { use super::super::inner::deep::Thing; }\n",
    )
    .unwrap();
    let found = cycles(&file_graph(root));
    assert_eq!(found.len(), 1, "{found:?}");
    for file in ["outer/mod.rs", "outer/inner/deep.rs", "outer/side.rs"] {
        assert!(found[0].contains(file), "{}", found[0]);
    }
    // Without the use in `side.rs`'s code, no circle is left: its doc link and its tests
    // do not count.
    fs::write(
        root.join("outer/side.rs"),
        "/// Not [`crate::outer`].\npub struct Side;\n#[cfg(test)]\nmod tests { use crate::outer::go; }\n",
    )
    .unwrap();
    assert_eq!(cycles(&file_graph(root)), Vec::<String>::new());
}

#[test]
fn every_import_goes_down_the_layers_that_lib_rs_documents() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let layers = documented_layers(&lib);
    assert!(layers.len() > 3, "src/lib.rs lists no layers: {layers:?}");
    let layer_of = |module: &str| layers.iter().position(|layer| layer.contains(module));
    let mut wrong = Vec::new();
    for (from, targets) in import_graph(&src()) {
        let Some(own) = layer_of(&from) else {
            wrong.push(format!("{from} is in no layer of src/lib.rs's list"));
            continue;
        };
        for (to, imports) in targets {
            match layer_of(&to) {
                Some(layer) if layer <= own => {}
                _ => wrong.push(format!(
                    "{from} (layer {}) uses {to}, which is not below it: {}",
                    own + 1,
                    imports[0]
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Words that name a particular game or dialect: the games' names and module names, their
/// dialects' names, and `chess::` paths. A name that is also a plain word (`chess`) counts
/// only quoted or as a path.
fn game_words() -> Vec<String> {
    let mut words = vec!["chess::".to_string()];
    for game in boardgrade::games::REGISTRY {
        let module = game.name().replace('-', "_");
        words.extend([game.name().to_string(), module]);
        words.extend(game.dialects().iter().map(|d| d.name.to_string()));
    }
    for word in &mut words {
        if word == "chess" {
            *word = "\"chess\"".to_string();
        }
    }
    words.sort();
    words.dedup();
    words
}

/// Whether `word` stands alone at `at` in `text` (not part of a longer name).
fn stands_alone(text: &str, at: usize, word: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let before = text[..at].chars().next_back();
    let after = text[at + word.len()..].chars().next();
    !before.is_some_and(is_name) && (word.ends_with("::") || !after.is_some_and(is_name))
}

#[test]
fn the_modules_that_run_every_game_alike_name_none() {
    let words = game_words();
    let mut named = Vec::new();
    for module in ["harness", "scenario", "report", "execution"] {
        let dir = src().join(module);
        let mut files = rust_files(&dir);
        files.push(src().join(format!("{module}.rs")));
        for file in files.iter().filter(|f| f.exists()) {
            let text = fs::read_to_string(file).unwrap();
            for (number, line) in text.lines().enumerate() {
                for word in &words {
                    let hit = line
                        .match_indices(word.as_str())
                        .any(|(at, _)| stands_alone(line, at, word));
                    if hit {
                        named.push(format!(
                            "{}:{} names {word:?}: {}",
                            file.strip_prefix(src().parent().unwrap())
                                .unwrap()
                                .display(),
                            number + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(named.is_empty(), "{}", named.join("\n"));
}
