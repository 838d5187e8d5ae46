//! Reports: renderers of harness events, chosen by the caller.

pub mod author;
pub mod board_svg;
pub mod class;
pub mod class_files;
pub mod class_html;
pub mod class_output;
pub mod class_render;
pub mod details;
pub mod diff;
pub mod format;
pub mod gradescope;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markup;
pub mod package;
pub mod perft;
pub mod prairielearn;
pub mod style;
pub mod test_files;

use std::io::{self, Write};

use crate::error::ScenarioFileError;
use crate::grade::LoadError;
use crate::harness::{Event, Outcome};

pub use style::Style;

/// Renders a run.
pub trait Reporter {
    /// A scenario file that could not be loaded (reported before the run).
    fn invalid_file(&mut self, error: &ScenarioFileError) -> io::Result<()>;
    fn event(&mut self, event: &Event<'_>) -> io::Result<()>;
    /// The program under test, `target`, does not load: none of its scenarios ran, and
    /// `outcomes` (each not run, scored 0) stand for them.
    fn does_not_load(
        &mut self,
        target: &str,
        error: &LoadError,
        outcomes: &[Outcome],
    ) -> io::Result<()>;
    /// No valid scenario remains for `target` (the files given did not load, or the filters
    /// keep none of those that did): nothing ran, and the invalid files are all there is.
    fn nothing_to_run(&mut self, target: &str) -> io::Result<()>;
}

/// The output formats of `boardgrade test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// A reporter of `format` writing to `out`; `show_passes` lists passing scenarios too.
pub fn reporter<'a, W: Write + 'a>(
    format: Format,
    out: W,
    style: Style,
    show_passes: bool,
) -> Box<dyn Reporter + 'a> {
    match format {
        Format::Human => Box::new(human::HumanReporter::new(out, style, show_passes)),
        Format::Json => Box::new(json::JsonReporter::new(out)),
    }
}
