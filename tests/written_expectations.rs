//! The bundled specs write down what they expect. A scenario whose steps have no `expect`
//! takes the reference engine's answer, so a change to the reference would move the test
//! with it, unseen; the handouts' own outputs must be written in the files, and `bless
//! --check` then proves the reference still produces them. A few scenarios cannot be
//! written (a rule battery or a match is played against the reference, a random game is
//! the reference's by design): they stay at most a tenth of all, each with a comment in its
//! file saying why the reference's answer stands in (`# The reference's answer stands in:
//! ...`).

use boardgrade::scenario::load::parse_file;
use boardgrade::scenario::sources::bundled;
use boardgrade::scenario::{Kind, Scenario};

/// The share of bundled scenarios that may take the reference's answer.
const MOST_UNWRITTEN: f64 = 0.10;

/// Whether every output of the scenario is written in its file: each step's `expect`, and
/// the opening where the program prints one. A code check runs nothing: the rule written in
/// its file is all it expects.
fn written(scenario: &Scenario) -> bool {
    match scenario.kind {
        Kind::Code(_) => return true,
        Kind::Match(_) | Kind::Battery(_) => return false,
        Kind::Steps => {}
    }
    if !scenario.steps.iter().all(|step| step.expect.is_some()) {
        return false;
    }
    scenario.opening.is_some() || reference_opening(scenario).is_empty()
}

/// What the reference prints before the first input (empty for call protocols).
fn reference_opening(scenario: &Scenario) -> String {
    let mut session = scenario
        .game
        .start(scenario.dialect, &scenario.options)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", scenario.file, scenario.name));
    session.opening().text
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

fn is_header(line: &str) -> bool {
    line.trim() == "[[scenario]]"
}

/// The comments that speak for the scenario whose `name` is on 1-based line `line`: those
/// directly above its `[[scenario]]` header, those inside its table before its steps, and
/// the file's own comments before its first scenario.
fn comments_for(text: &str, line: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let name = line.saturating_sub(1).min(lines.len().saturating_sub(1));
    let mut found = Vec::new();
    let header = (0..=name).rev().find(|&i| is_header(lines[i]));
    if let Some(header) = header {
        found.extend(
            lines[..header]
                .iter()
                .rev()
                .take_while(|l| is_comment(l))
                .copied(),
        );
        let inside: Vec<&str> = lines[header + 1..]
            .iter()
            .take_while(|l| !l.contains("steps") && !is_header(l))
            .copied()
            .collect();
        // A comment block that runs into the next header speaks for the next scenario.
        let end = header + 1 + inside.len();
        let next_header = lines.get(end).is_some_and(|l| is_header(l));
        let keep = if next_header {
            inside.len() - inside.iter().rev().take_while(|l| is_comment(l)).count()
        } else {
            inside.len()
        };
        found.extend(inside[..keep].iter().filter(|l| is_comment(l)).copied());
    }
    let first = lines.iter().position(|l| is_header(l));
    for line in lines[..first.unwrap_or(lines.len())].iter() {
        if is_comment(line) && !found.contains(line) {
            found.push(line);
        }
    }
    found
}

/// Whether a comment for the scenario says why the reference's answer stands in.
fn explained(text: &str, scenario: &Scenario) -> bool {
    comments_for(text, scenario.line)
        .iter()
        .any(|c| c.to_lowercase().contains("reference's answer stands in"))
}

struct Census {
    total: usize,
    unwritten: Vec<String>,
    unexplained: Vec<String>,
}

fn census() -> Census {
    let mut census = Census {
        total: 0,
        unwritten: Vec::new(),
        unexplained: Vec::new(),
    };
    for file in bundled().iter().filter(|f| !f.is_variant()) {
        let scenarios = parse_file(&file.name, &file.text)
            .unwrap_or_else(|e| panic!("a bundled file does not load: {e}"));
        let mut seen = std::collections::BTreeSet::new();
        // A battery's families share their table: it is one scenario written in the file.
        for scenario in scenarios.iter().filter(|s| seen.insert(s.line)) {
            census.total += 1;
            if written(scenario) {
                continue;
            }
            let place = format!("{}:{} {:?}", scenario.file, scenario.line, scenario.name);
            if !explained(&file.text, scenario) {
                census.unexplained.push(place.clone());
            }
            census.unwritten.push(place);
        }
    }
    census
}

#[test]
fn at_most_a_tenth_of_the_bundled_scenarios_take_the_reference_answer() {
    let census = census();
    assert!(census.total > 100, "only {} scenarios found", census.total);
    let share = census.unwritten.len() as f64 / census.total as f64;
    assert!(
        share <= MOST_UNWRITTEN,
        "{} of {} bundled scenarios write no expectation ({:.0}%, at most {:.0}% may):\n{}",
        census.unwritten.len(),
        census.total,
        share * 100.0,
        MOST_UNWRITTEN * 100.0,
        census.unwritten.join("\n")
    );
}

#[test]
fn each_scenario_that_takes_the_reference_answer_says_why() {
    let census = census();
    assert!(
        census.unexplained.is_empty(),
        "these scenarios write no expectation and no comment saying why the reference's \
         answer stands in (`# The reference's answer stands in: WHY`, above their \
         [[scenario]] or inside it before the steps, or atop the file for all of it):\n{}",
        census.unexplained.join("\n")
    );
}

#[test]
fn a_comment_is_found_above_the_header_inside_the_table_or_atop_the_file() {
    let text = "# top\n[[scenario]]\nname = \"a\"\n# played by the reference\n[[scenario]]\n\
                name = \"b\"\n[[scenario]]\n# the reference's game\nname = \"c\"\nsteps = []\n";
    assert_eq!(comments_for(text, 3), vec!["# top"]);
    assert_eq!(
        comments_for(text, 6),
        vec!["# played by the reference", "# top"]
    );
    assert_eq!(
        comments_for(text, 9),
        vec!["# the reference's game", "# top"]
    );
    let single = "# one scenario, at the top level\nname = \"x\"\nsteps = []\n";
    assert_eq!(
        comments_for(single, 2),
        vec!["# one scenario, at the top level"]
    );
}
