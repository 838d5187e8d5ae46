//! `fuzz`: what is fuzzed, each failing game (unless quiet), each distinct failure shrunk
//! with its diff and file, and the count at the end.

use std::io::{self, Write};

use crate::author::fuzz::{FuzzEvent, FuzzReport};
use crate::report::{diff, Style};

pub struct FuzzReporter<O: Write> {
    out: O,
    style: Style,
    /// Failing games are listed too, not only distinct failures.
    show_games: bool,
}

impl<O: Write> FuzzReporter<O> {
    pub fn new(out: O, style: Style, show_games: bool) -> Self {
        FuzzReporter {
            out,
            style,
            show_games,
        }
    }

    /// What is fuzzed: `dialect` (its id) against `target`, `games` games from `seed`.
    pub fn start(
        &mut self,
        dialect: &str,
        target: &str,
        games: usize,
        seed: u64,
    ) -> io::Result<()> {
        writeln!(
            self.out,
            "fuzzing {dialect} against {target}: {games} game(s) from seed {seed}"
        )
    }

    pub fn event(&mut self, event: &FuzzEvent<'_>) -> io::Result<()> {
        match event {
            FuzzEvent::Played {
                game,
                steps,
                failed: Some(signature),
            } if self.show_games => writeln!(self.out, "game {game} ({steps} lines): {signature}"),
            FuzzEvent::Played { .. } => Ok(()),
            FuzzEvent::Found(failure) => {
                writeln!(
                    self.out,
                    "  shrunk {} lines to {} in {} run(s): {}",
                    failure.original_steps,
                    failure.steps.len(),
                    failure.shrink_tests,
                    failure.steps.join("; ")
                )?;
                if let Some(d) = &failure.outcome.first_divergence {
                    let shown = diff::render(&d.expected, &d.actual, self.style, "    ");
                    writeln!(self.out, "{shown}")?;
                }
                writeln!(self.out, "  wrote {}", failure.path.display())
            }
        }
    }

    /// Games played and distinct failures found.
    pub fn finish(&mut self, report: &FuzzReport) -> io::Result<()> {
        let repeats = match report.repeats {
            0 => String::new(),
            n => format!(" ({n} more game(s) failed the same way)"),
        };
        writeln!(
            self.out,
            "{} game(s), {} distinct failure(s){repeats}",
            report.games,
            report.failures.len()
        )
    }
}
