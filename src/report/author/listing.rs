//! `games` and `list`: a line per dialect and variant, a line per scenario.

use crate::error::ScenarioFileError;
use crate::games::variant::Variant;
use crate::games::Game;
use crate::scenario::{Scenario, Visibility};

/// A line per dialect of `games`, then a line per variant found (or its error).
pub fn games(
    games: &[&'static dyn Game],
    variants: &[Result<&'static Variant, ScenarioFileError>],
) -> String {
    let mut text = String::new();
    for game in games {
        for dialect in game.dialects() {
            let graded_with = dialect
                .graded_with
                .map(|main| format!(", graded with every {main} program"))
                .unwrap_or_default();
            text.push_str(&format!(
                "{:<14} {:<10} {:?} protocol, entry file {}, handout {}{graded_with}\n",
                game.name(),
                dialect.name,
                dialect.protocol,
                dialect.entry_file,
                dialect.handout
            ));
        }
    }
    for found in variants {
        let line = match found {
            Ok(v) => format!(
                "{:<14} {:<10} variant of {}, entry file {}, defines {}, file {}",
                v.game.name(),
                v.name,
                v.base().name,
                v.dialect.entry_file,
                v.dialect.defines.join(", "),
                v.file
            ),
            Err(error) => format!("error: {error}"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// A line per scenario (game, dialect, file and line, name, and its marks), then the count.
pub fn scenarios(kept: &[&Scenario]) -> String {
    let mut text: String = kept.iter().map(|s| scenario(s)).collect();
    text.push_str(&format!("{} scenario(s)\n", kept.len()));
    text
}

fn scenario(s: &Scenario) -> String {
    let mut marks: Vec<String> = s.tags.iter().map(|t| format!("#{t}")).collect();
    if s.visibility != Visibility::Visible {
        marks.push(s.visibility.as_str().to_string());
    }
    if let Some(check) = s.code_check() {
        marks.push(format!("code check: {}", check.rule));
        if check.optional {
            marks.push("optional".into());
        }
    }
    let marks = if marks.is_empty() {
        String::new()
    } else {
        format!("  [{}]", marks.join(" "))
    };
    format!(
        "{:<12} {:<9} {}:{}  {}{marks}\n",
        s.game.name(),
        s.dialect.name,
        s.file,
        s.line,
        s.name
    )
}
