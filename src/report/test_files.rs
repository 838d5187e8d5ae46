//! The files a `test` run is written as, besides its report on stdout: each
//! `--report FORMAT=PATH` (JSON or JUnit), from the same run, each written whole or not at
//! all.

use super::class_files::{ReportFormat, ReportRequest};
use super::format::{self, TestReport};
use super::junit;
use crate::error::{Error, ScenarioFileError};
use crate::harness::Outcome;

/// Writes each report of `reports` for the run of `target` that gave `outcomes`, with the
/// scenario files that did not load (`invalid`). Formats of a class are refused before the
/// run, so none is met here.
pub fn write(
    reports: &[ReportRequest],
    target: &str,
    outcomes: &[Outcome],
    invalid: &[ScenarioFileError],
) -> Result<(), Error> {
    for request in reports {
        let bytes = match request.format {
            ReportFormat::Json => format::encode(&TestReport::new(target, outcomes, invalid)),
            ReportFormat::Junit => junit::junit_run(target, outcomes).into_bytes(),
            _ => continue,
        };
        crate::atomic::write(&request.path, &bytes)?;
    }
    Ok(())
}
