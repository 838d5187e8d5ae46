//! The published JSON formats: their own types, versioned, apart from the structs the
//! harness and grader work with, so a change inside never changes what scripts read
//! unnoticed. Each has a JSON Schema generated from its type and checked in under
//! `schemas/` (a test fails when one drifts).
//!
//! `schema_version` is raised whenever a field is removed, renamed or changes meaning;
//! added fields keep it.

pub mod class;
pub mod test_run;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};

/// One scenario's result, a set of scenarios' totals and one submission's grade, as the
/// JSON formats publish them: the harness's and grader's own types, defined once and
/// published under these names.
pub use crate::grade::SubmissionResult as SubmissionReport;
pub use crate::harness::{Outcome as ScenarioResult, Summary as Totals};
pub use class::{ClassReport, Grader, SummaryFile};
pub use test_run::{InvalidFile, TestReport};

/// The layout version of every document written here.
pub const SCHEMA_VERSION: u32 = 2;

/// The boardgrade release that wrote a document.
pub const BOARDGRADE: &str = env!("CARGO_PKG_VERSION");

/// A document as pretty JSON with a final newline.
pub fn encode(document: &impl serde::Serialize) -> Vec<u8> {
    // These types hold only strings, numbers, lists and string-keyed maps: encoding
    // cannot fail.
    let mut bytes = serde_json::to_vec_pretty(document).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// One published format: the file name of its schema and the schema.
pub struct Published {
    /// `schemas/NAME.schema.json`.
    pub name: &'static str,
    pub schema: Schema,
}

/// A file boardgrade reads: its schema says what may be written.
fn input<T: JsonSchema>(name: &'static str) -> Published {
    Published {
        name,
        schema: schemars::schema_for!(T),
    }
}

/// A document boardgrade writes: its schema says what is written (a field left out when
/// empty is not required).
fn output<T: JsonSchema>(name: &'static str) -> Published {
    let generator = SchemaSettings::default().for_serialize().into_generator();
    Published {
        name,
        schema: generator.into_root_schema_for::<T>(),
    }
}

/// Every published format: the scenario file and each JSON output.
pub fn published_formats() -> Vec<Published> {
    vec![
        input::<crate::scenario::model::Entry>("scenario"),
        output::<TestReport>("test"),
        output::<ClassReport>("grade"),
        output::<SummaryFile>("summary"),
        output::<crate::grade::manifest::Manifest>("run"),
        output::<crate::report::gradescope::Results>("gradescope"),
        output::<crate::report::prairielearn::Results>("prairielearn"),
    ]
}
