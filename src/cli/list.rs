//! `boardgrade list`: the scenarios bundled into the binary (or of the files given), a
//! line each: game, dialect, file and line, name, and what marks it (tags, visibility).

use boardgrade::scenario::{Scenario, Visibility};
use boardgrade::Error;

use super::args::ListArgs;
use super::console::say;
use super::exit::Status;
use super::resolve;

fn line(s: &Scenario) -> String {
    let mut marks: Vec<String> = s.tags.iter().map(|t| format!("#{t}")).collect();
    if s.visibility != Visibility::Visible {
        marks.push(s.visibility.as_str().to_string());
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

pub fn run(args: &ListArgs) -> Result<Status, Error> {
    let only = resolve::filter(&args.only)?;
    let loaded = resolve::load(only, &resolve::files(&args.paths)?)?;
    for error in &loaded.errors {
        eprintln!("boardgrade: error: {error}");
    }
    let kept: Vec<&Scenario> = loaded
        .scenarios
        .iter()
        .filter(|s| resolve::keeps(only, s))
        .filter(|s| {
            args.filter
                .as_ref()
                .is_none_or(|f| s.name.contains(f.as_str()))
        })
        .collect();
    let mut text: String = kept.iter().map(|s| line(s)).collect();
    text.push_str(&format!("{} scenario(s)\n", kept.len()));
    say(&text)?;
    Ok(if loaded.errors.is_empty() {
        Status::Passed
    } else {
        Status::Invalid
    })
}
