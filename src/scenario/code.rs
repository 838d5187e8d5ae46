//! A scenario file's `code` table: a code check, a rule a handout states about the
//! submission's code (no code outside functions, `main` left as the starter has it, ...),
//! checked on its parse tree without running it. Each rule takes its own settings; a setting
//! of another rule is an error, so a typo cannot turn a check into one that passes everything.
//! The rules themselves are Python (`harness/code/checks.py`): Python's own parser is the only
//! one that reads every submission as the interpreter does.

use serde::{Deserialize, Serialize};

use crate::policy::{self, Policy};

/// What a scenario's `code` table says: one rule and its settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeDef {
    /// The rule checked (see `specs/README.md`): `outside_functions`, `unchanged`,
    /// `string_literals`, `required`, `docstrings`, `header_comment`, `no_print`,
    /// `forbidden_imports`, `line_length`, `naming` or `no_global`.
    pub rule: String,
    /// Off unless the course's `code_checks` names the rule: for checks the handout does
    /// not say it grades.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
    /// `outside_functions`: what may stand outside functions (`imports`, `constants`,
    /// `values`, `main_call`, `main_guard`, `docstrings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<String>>,
    /// `unchanged`: the function that must stay as the starter code has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// `unchanged`: the starter code (Python source holding `function`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starter: Option<String>,
    /// `unchanged`: names whose statements a student may comment out (`gui`, `draw_board`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub may_remove: Option<Vec<String>>,
    /// `string_literals`: the functions that may hold string literals; `required`: the
    /// functions that must be defined and called; `no_print`: the functions that must not
    /// print (`*` for all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions: Option<Vec<String>>,
    /// `string_literals`: the functions whose helpers (functions only they call, however
    /// deep) may hold string literals too: an `announce_winner` that `is_game_over` calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub helpers_of: Option<Vec<String>>,
    /// `required`: dictionaries the file must create at its top level and use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dicts: Option<Vec<String>>,
    /// `docstrings`, `line_length`, `naming`: functions left out of the check (the starter's).
    #[serde(default, rename = "except", skip_serializing_if = "Option::is_none")]
    pub exempt: Option<Vec<String>>,
    /// `docstrings`: a comment just above the `def` (or first in its body) counts too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<bool>,
    /// `header_comment`: what the header must give (`file_name`, `name`, `date`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require: Option<Vec<String>>,
    /// `no_print`, `outside_functions`: the functions the handout asks for. `no_print` then
    /// checks only the code they run (these functions and those they name, in turn);
    /// `outside_functions` also counts a function none of them runs that prints or asks for
    /// input (a program that plays with a human, beside the functions asked for). Where the
    /// file defines none of them, both check as without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<Vec<String>>,
    /// `no_print`: the calls that count as printing (`print`, `input`, `sys.stdout.write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<Vec<String>>,
    /// `forbidden_imports`: the modules (and their submodules) no file may import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modules: Option<Vec<String>>,
    /// `line_length`: the longest line allowed, in characters (tabs as 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<usize>,
}

/// A rule: its name, the settings it takes (the others are errors), those it needs, and
/// the words a list setting may hold.
struct RuleSpec {
    name: &'static str,
    takes: &'static [&'static str],
    needs: &'static [&'static str],
    about: &'static str,
}

/// Every rule, as `code_checks` in a course file names them.
const RULES: &[RuleSpec] = &[
    RuleSpec {
        name: "outside_functions",
        takes: &["allow", "asked"],
        needs: &[],
        about: "no code outside functions",
    },
    RuleSpec {
        name: "unchanged",
        takes: &["function", "starter", "may_remove"],
        needs: &["function", "starter"],
        about: "a function left as the starter code has it",
    },
    RuleSpec {
        name: "string_literals",
        takes: &["functions", "helpers_of"],
        needs: &["functions"],
        about: "string literals only in the named functions",
    },
    RuleSpec {
        name: "required",
        takes: &["functions", "dicts"],
        needs: &[],
        about: "functions and dictionaries defined and used",
    },
    RuleSpec {
        name: "docstrings",
        takes: &["except", "comments"],
        needs: &[],
        about: "a docstring on every function",
    },
    RuleSpec {
        name: "header_comment",
        takes: &["require"],
        needs: &[],
        about: "a comment at the top of the file",
    },
    RuleSpec {
        name: "no_print",
        takes: &["functions", "calls", "asked"],
        needs: &[],
        about: "functions that do not print",
    },
    RuleSpec {
        name: "forbidden_imports",
        takes: &["modules"],
        needs: &["modules"],
        about: "modules no file may import",
    },
    RuleSpec {
        name: "line_length",
        takes: &["max", "except"],
        needs: &[],
        about: "no line longer than `max`",
    },
    RuleSpec {
        name: "naming",
        takes: &["except"],
        needs: &[],
        about: "snake_case names (UPPER_CASE constants, CapWords classes)",
    },
    RuleSpec {
        name: "no_global",
        takes: &[],
        needs: &[],
        about: "no `global` statement",
    },
];

/// The rule names, as a course file's `code_checks` takes them (after `handout`).
pub const RULE_NAMES: &[&str] = policy::CODE_CHECK_WORDS.split_at(1).1;

const OUTSIDE_ALLOWED: &[&str] = &[
    "imports",
    "constants",
    "values",
    "main_call",
    "main_guard",
    "docstrings",
];
const HEADER_PARTS: &[&str] = &["file_name", "name", "date"];
const MAX_LINE_LENGTH: std::ops::RangeInclusive<usize> = 20..=1000;

/// A code check ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeCheck {
    /// The rule's name (one of [`RULE_NAMES`]).
    pub rule: &'static str,
    /// Off unless the course names the rule in `code_checks`.
    pub optional: bool,
    /// The rule and its settings, as the checker reads them.
    pub settings: serde_json::Value,
}

impl CodeCheck {
    /// Whether `policy` grades this check: its rule is named in `code_checks`, or the list
    /// holds `handout` and the check is not optional.
    pub fn graded(&self, policy: &Policy) -> bool {
        let words = policy.words(policy::CODE_CHECKS);
        words.iter().any(|w| w == self.rule)
            || (!self.optional && words.iter().any(|w| w == policy::CODE_CHECKS_HANDOUT))
    }

    /// What the rule checks, in a few words.
    pub fn about(&self) -> &'static str {
        RULES
            .iter()
            .find(|r| r.name == self.rule)
            .map_or("", |r| r.about)
    }
}

/// A problem with a `code` table: the key at fault (`code.KEY`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeProblem {
    pub key: String,
    pub message: String,
}

fn problem(key: &str, message: String) -> CodeProblem {
    CodeProblem {
        key: format!("code.{key}"),
        message,
    }
}

/// The settings present in `def`, by name.
fn present(def: &CodeDef) -> Vec<&'static str> {
    let mut found = Vec::new();
    let mut note = |name: &'static str, is: bool| {
        if is {
            found.push(name);
        }
    };
    note("allow", def.allow.is_some());
    note("function", def.function.is_some());
    note("starter", def.starter.is_some());
    note("may_remove", def.may_remove.is_some());
    note("functions", def.functions.is_some());
    note("helpers_of", def.helpers_of.is_some());
    note("dicts", def.dicts.is_some());
    note("except", def.exempt.is_some());
    note("comments", def.comments.is_some());
    note("require", def.require.is_some());
    note("calls", def.calls.is_some());
    note("asked", def.asked.is_some());
    note("modules", def.modules.is_some());
    note("max", def.max.is_some());
    found
}

/// Every word of `words` one of `known`.
fn words_of(key: &str, words: &Option<Vec<String>>, known: &[&str]) -> Result<(), CodeProblem> {
    for word in words.iter().flatten() {
        if !known.contains(&word.as_str()) {
            return Err(problem(
                key,
                format!(
                    "unknown word {word:?}; expected some of {}",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Checks a `code` table and resolves it.
pub fn resolve(def: &CodeDef) -> Result<CodeCheck, CodeProblem> {
    let spec = RULES.iter().find(|r| r.name == def.rule).ok_or_else(|| {
        problem(
            "rule",
            format!(
                "unknown rule {:?}; expected one of {}",
                def.rule,
                RULE_NAMES.join(", ")
            ),
        )
    })?;
    let present = present(def);
    if let Some(stray) = present.iter().find(|k| !spec.takes.contains(k)) {
        let takes = if spec.takes.is_empty() {
            "no settings".to_string()
        } else {
            spec.takes.join(", ")
        };
        return Err(problem(
            stray,
            format!(
                "`{stray}` is not a setting of rule `{}` (it takes {takes})",
                spec.name
            ),
        ));
    }
    if let Some(missing) = spec.needs.iter().find(|k| !present.contains(k)) {
        return Err(problem(
            missing,
            format!("rule `{}` needs `{missing}`", spec.name),
        ));
    }
    if spec.name == "required" && def.functions.is_none() && def.dicts.is_none() {
        return Err(problem(
            "functions",
            "rule `required` needs `functions` or `dicts`".into(),
        ));
    }
    words_of("allow", &def.allow, OUTSIDE_ALLOWED)?;
    words_of("require", &def.require, HEADER_PARTS)?;
    if let Some(max) = def.max {
        if !MAX_LINE_LENGTH.contains(&max) {
            return Err(problem(
                "max",
                format!(
                    "`max` is a line length from {} to {}, not {max}",
                    MAX_LINE_LENGTH.start(),
                    MAX_LINE_LENGTH.end()
                ),
            ));
        }
    }
    if let (Some(function), Some(starter)) = (&def.function, &def.starter) {
        let defines = starter.lines().any(|line| {
            line.strip_prefix("def ")
                .or_else(|| line.strip_prefix("async def "))
                .is_some_and(|rest| {
                    rest.trim_start()
                        .strip_prefix(function.as_str())
                        .is_some_and(|r| r.trim_start().starts_with('('))
                })
        });
        if !defines {
            return Err(problem(
                "starter",
                format!("the starter code defines no top-level function `{function}`"),
            ));
        }
    }
    let settings =
        serde_json::to_value(def).map_err(|e| problem("rule", format!("cannot encode: {e}")))?;
    Ok(CodeCheck {
        rule: spec.name,
        optional: def.optional.unwrap_or(false),
        settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(rule: &str) -> CodeDef {
        CodeDef {
            rule: rule.into(),
            ..CodeDef::default()
        }
    }

    #[test]
    fn every_rule_is_named_once() {
        let names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(names, RULE_NAMES);
    }

    #[test]
    fn a_setting_of_another_rule_is_refused_with_its_key() {
        let mut naming = def("naming");
        naming.allow = Some(vec!["imports".into()]);
        let error = resolve(&naming).unwrap_err();
        assert_eq!(error.key, "code.allow");
        assert!(error.message.contains("not a setting of rule `naming`"));
    }

    #[test]
    fn unknown_rules_and_words_are_refused() {
        assert_eq!(resolve(&def("no_prints")).unwrap_err().key, "code.rule");
        let mut outside = def("outside_functions");
        outside.allow = Some(vec!["main".into()]);
        assert_eq!(resolve(&outside).unwrap_err().key, "code.allow");
        let mut long = def("line_length");
        long.max = Some(5);
        assert_eq!(resolve(&long).unwrap_err().key, "code.max");
    }

    #[test]
    fn the_functions_asked_for_are_a_setting_of_the_two_rules_about_them() {
        let asked = Some(vec!["move_maker".to_string()]);
        for rule in ["no_print", "outside_functions"] {
            let check = resolve(&CodeDef {
                asked: asked.clone(),
                ..def(rule)
            })
            .unwrap();
            assert_eq!(check.settings["asked"][0], "move_maker");
        }
        let docstrings = CodeDef {
            asked,
            ..def("docstrings")
        };
        assert_eq!(resolve(&docstrings).unwrap_err().key, "code.asked");
    }

    #[test]
    fn unchanged_needs_a_starter_that_defines_the_function() {
        let mut unchanged = def("unchanged");
        unchanged.function = Some("main".into());
        assert_eq!(resolve(&unchanged).unwrap_err().key, "code.starter");
        unchanged.starter = Some("def mainly():\n    pass\n".into());
        assert_eq!(resolve(&unchanged).unwrap_err().key, "code.starter");
        unchanged.starter = Some("def main():\n    pass\n".into());
        let check = resolve(&unchanged).unwrap();
        assert_eq!(check.settings["function"], "main");
        assert_eq!(check.settings["rule"], "unchanged");
    }
}
