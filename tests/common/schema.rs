//! The checked-in JSON Schemas (`schemas/`), to validate what the binary writes.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

/// The validator of `schemas/NAME.schema.json`, built once per test process.
fn validator(name: &str) -> &'static jsonschema::Validator {
    static VALIDATORS: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    let all = VALIDATORS.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
        std::fs::read_dir(&dir)
            .expect("schemas/ exists")
            .map(|entry| {
                let path = entry.unwrap().path();
                let file = path.file_name().unwrap().to_string_lossy().to_string();
                let name = file.trim_end_matches(".schema.json").to_string();
                let schema: Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let validator = jsonschema::validator_for(&schema)
                    .unwrap_or_else(|e| panic!("{file} is not a valid schema: {e}"));
                (name, validator)
            })
            .collect()
    });
    all.get(name)
        .unwrap_or_else(|| panic!("no schemas/{name}.schema.json"))
}

/// Panics, naming every place at fault, unless `document` follows schema `name`.
pub fn assert_valid(name: &str, document: &Value, what: &str) {
    let errors: Vec<String> = validator(name)
        .iter_errors(document)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not follow schemas/{name}.schema.json:\n{}",
        errors.join("\n")
    );
}
