//! Bundles `specs/` into the binary, so a student with only the binary can run them.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time, not compiled in: a build script reused from a copy of the tree
    // elsewhere must still bundle this tree's specs.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest_dir).join("specs");
    println!("cargo:rerun-if-changed=specs");
    let mut entries: Vec<(String, String)> = Vec::new();
    if root.is_dir() {
        for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
            let entry = entry.expect("walk specs/");
            println!("cargo:rerun-if-changed={}", entry.path().display());
            if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "toml")
            {
                let relative = entry.path().strip_prefix(&root).expect("under specs/");
                let name = relative.to_string_lossy().replace('\\', "/");
                entries.push((name, entry.path().display().to_string()));
            }
        }
    }
    let mut code = String::from("pub static FILES: &[(&str, &str)] = &[\n");
    for (name, path) in entries {
        writeln!(code, "    ({name:?}, include_str!({path:?})),").unwrap();
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled_specs.rs");
    std::fs::write(out, code).expect("write bundled_specs.rs");
}
