//! A class's results as one self-contained HTML page, for instructors: the score
//! distribution, each scenario's failure rate as a bar, the common mistakes with their boards
//! and the students in each group, and a section per student (verdicts, first divergence with
//! boards, time). Everything is inline (style, pictures, a little script that sorts and
//! filters the tables): the page works from a file, fetches nothing, and reads in full with
//! scripting off. Written with `maud`, which escapes every name, scenario and output it is
//! given; only the page's own style and script, and the board pictures it made itself, go in
//! as they are.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::html::{details_block, divergence_picture, Reader};
use super::markup::xml_safe;
use super::style::Style;
use crate::grade::class::{ClassSummary, FailureGroup};
use crate::grade::SubmissionResult;
use crate::harness::{Outcome, Verdict};
use crate::points::Points;

/// Buckets of the score distribution, by tenths of the maximum (the last holds full marks).
const BUCKETS: usize = 11;

const STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1100px;padding:1em 1.5em;color:#222}
h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid #eee;vertical-align:top}
th{background:#f6f6f6}th[data-sort]{cursor:pointer}th[data-sort]:after{content:' \\2195';color:#999}
.bar{background:#eee;height:1em;width:12em;display:inline-block;vertical-align:middle}td.rate{white-space:nowrap}.bar span{display:block;height:100%;background:#d32f2f}
.bar.score span{background:#2e7d32}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.hist{display:flex;align-items:flex-end;gap:4px;height:160px;border-bottom:1px solid #999;margin-top:.5em}
.hist div{flex:1;background:#1565c0;position:relative;min-height:1px}.hist div b{position:absolute;top:-1.3em;width:100%;text-align:center;font-weight:normal}
.hist-labels{display:flex;gap:4px}.hist-labels span{flex:1;text-align:center;font-size:.8em;color:#555}
.v-pass{color:#2e7d32}.v-error{color:#8d6e00}.verdict{font-weight:600}
.v-wrong,.v-presentation,.v-timeout,.v-crash,.v-output-limit,.v-memory-limit{color:#c62828}
section.student{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0}
section.student h3{margin:.3em 0}pre{background:#f7f7f7;padding:.5em;overflow:auto;font-size:12px;max-height:24em}
.mistake{border-left:4px solid #d32f2f;padding:.2em 1em;margin:1em 0}.muted{color:#666}
input[type=search]{padding:.3em .5em;width:20em;margin:.5em 0}
svg.boards{max-width:100%;height:auto}
";

const SCRIPT: &str = "
(function(){
  function cell(row,i){var c=row.cells[i];return c?(c.getAttribute('data-value')||c.textContent):'';}
  document.querySelectorAll('table.sortable').forEach(function(table){
    table.querySelectorAll('th[data-sort]').forEach(function(th,i){
      th.addEventListener('click',function(){
        var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
        var down=th.getAttribute('data-dir')!=='down';th.setAttribute('data-dir',down?'down':'up');
        var numeric=th.getAttribute('data-sort')==='number';
        rows.sort(function(a,b){var x=cell(a,th.cellIndex),y=cell(b,th.cellIndex);
          var r=numeric?(parseFloat(x)-parseFloat(y)):x.localeCompare(y);return down?-r:r;});
        rows.forEach(function(r){body.appendChild(r);});
      });
    });
  });
  var filter=document.getElementById('filter');
  if(filter){filter.hidden=false;filter.addEventListener('input',function(){
    var q=filter.value.toLowerCase();
    document.querySelectorAll('[data-filter]').forEach(function(el){
      el.style.display=el.getAttribute('data-filter').toLowerCase().indexOf(q)>=0?'':'none';
    });
  });}
})();
";

/// A column of a table's header: its heading, how it sorts (`text` or `number`) if it does,
/// and whether it holds numbers (aligned right).
type Column = (&'static str, Option<&'static str>, bool);

const SCENARIO_COLUMNS: [Column; 4] = [
    ("scenario", Some("text"), false),
    ("file", Some("text"), false),
    ("failed", Some("number"), true),
    ("failure rate", Some("number"), false),
];

const STUDENT_COLUMNS: [Column; 6] = [
    ("student", Some("text"), false),
    ("score", Some("number"), true),
    ("share", Some("number"), false),
    ("failed", Some("number"), true),
    ("time (s)", Some("number"), true),
    ("state", Some("text"), false),
];

const OUTCOME_COLUMNS: [Column; 4] = [
    ("scenario", None, false),
    ("verdict", None, false),
    ("score", None, true),
    ("time (s)", None, true),
];

fn head(columns: &[Column]) -> Markup {
    html! {
        thead {
            tr {
                @for (label, sort, number) in columns {
                    th data-sort=[sort] class=[number.then_some("num")] { (label) }
                }
            }
        }
    }
}

fn verdict_span(v: Verdict) -> Markup {
    html! {
        span class={ "verdict v-" (v.as_str()) } { (v.as_str()) }
    }
}

fn percent(part: Points, whole: Points) -> f64 {
    (100.0 * part.ratio(whole)).clamp(0.0, 100.0)
}

/// Milliseconds as seconds, to `places` decimals.
fn seconds(ms: u64, places: usize) -> String {
    format!("{:.*}", places, ms as f64 / 1000.0)
}

/// A bar `share` percent full; `class` adds to `bar`, `title` names it.
fn bar(class: Option<&str>, share: f64, title: Option<String>) -> Markup {
    html! {
        div class={ "bar" @if let Some(c) = class { " " (c) } } title=[title] {
            span style=(format!("width:{share:.1}%")) {}
        }
    }
}

/// The student's section's element id: letters and digits kept, every other character as
/// `-HEX-`, so that two names never share one (`a b` and `a-b` once did, and the link of one
/// student led to the other's results).
fn anchor(id: &str) -> String {
    let mut safe = String::from("student-");
    for c in id.chars() {
        if c.is_ascii_alphanumeric() {
            safe.push(c);
        } else {
            safe.push_str(&format!("-{:x}-", c as u32));
        }
    }
    safe
}

/// A link to the section of the student `id`.
fn student_link(id: &str) -> Markup {
    html! {
        a href={ "#" (anchor(id)) } { (id) }
    }
}

fn bucket_label(i: usize) -> String {
    if i == BUCKETS - 1 {
        "100%".to_string()
    } else {
        format!("{}–{}%", i * 10, i * 10 + 9)
    }
}

fn distribution(results: &[SubmissionResult]) -> Markup {
    let mut buckets = [0usize; BUCKETS];
    for r in results.iter().filter(|r| r.error.is_none()) {
        let share = percent(r.score, r.max_score) / 100.0;
        buckets[((share * 10.0).floor() as usize).min(BUCKETS - 1)] += 1;
    }
    let tallest = buckets.iter().copied().max().unwrap_or(0).max(1);
    html! {
        h2 id="distribution" { "Score distribution" }
        div class="hist" role="img" aria-label="submissions per score range" {
            @for count in buckets {
                div style={ "height:" (100 * count / tallest) "%" } title={ (count) " submission(s)" } {
                    b { (count) }
                }
            }
        }
        div class="hist-labels" {
            @for i in 0..BUCKETS {
                span { (bucket_label(i)) }
            }
        }
    }
}

fn failure_rates(summary: &ClassSummary) -> Markup {
    html! {
        h2 id="scenarios" { "Scenarios by failure rate" }
        table class="sortable" {
            (head(&SCENARIO_COLUMNS))
            tbody {
                @for s in &summary.scenarios {
                    @let rate = 100.0 * s.failure_rate;
                    tr data-filter={ (s.name) " " (s.file) } {
                        td { (s.name) }
                        td class="muted" { (s.file) }
                        td class="num" data-value=(s.failed) { (s.failed) "/" (s.graded) }
                        td class="rate" data-value=(format!("{rate:.1}")) {
                            (bar(None, rate, Some(format!("{rate:.0}%"))))
                            " " (format!("{rate:.0}%"))
                        }
                    }
                }
            }
        }
    }
}

/// The outcome of a common mistake in the first of its submissions, to draw its boards.
fn example<'a>(results: &'a [SubmissionResult], group: &FailureGroup) -> Option<&'a Outcome> {
    let first = group.submissions.first()?;
    let result = results.iter().find(|r| &r.id == first)?;
    result.scenarios.iter().find(|o| {
        o.name == group.scenario
            && o.verdict == group.verdict
            && o.first_divergence.as_ref().map(|d| d.step) == group.step
    })
}

fn mistake(results: &[SubmissionResult], group: &FailureGroup) -> Markup {
    html! {
        div class="mistake" data-filter={ (group.scenario) " " (group.submissions.join(" ")) } {
            h3 {
                (group.submissions.len()) " × " (verdict_span(group.verdict))
                " in “" (group.scenario) "”"
                @if let (Some(step), Some(send)) = (group.step, &group.send) {
                    " at step " (step) ", " code { (send) }
                }
            }
            @if let Some(picture) = example(results, group).and_then(|o| divergence_picture(o, Reader::Course)) {
                (picture)
            }
            @if let (Some(expected), Some(actual)) = (&group.expected, &group.actual) {
                details {
                    summary { "expected and actual output" }
                    pre { (super::diff::render(expected, actual, Style { color: false }, "")) }
                }
            }
            p {
                @for (i, id) in group.submissions.iter().enumerate() {
                    @if i > 0 { ", " }
                    (student_link(id))
                }
            }
        }
    }
}

fn common_mistakes(results: &[SubmissionResult], summary: &ClassSummary) -> Markup {
    html! {
        h2 id="mistakes" { "Common mistakes" }
        @if summary.common_failures.is_empty() {
            p { "No two submissions failed a scenario the same way." }
        }
        @for group in &summary.common_failures {
            (mistake(results, group))
        }
    }
}

/// What became of a submission, in a word or a few.
fn state(r: &SubmissionResult) -> String {
    match &r.error {
        Some(error) => format!("not graded: {error}"),
        None if r.passed() => "all passed".to_string(),
        None => r
            .summary
            .verdicts
            .iter()
            .filter(|(v, _)| v.as_str() != "pass")
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn student_table(results: &[SubmissionResult]) -> Markup {
    html! {
        h2 id="students" { "Students" }
        input type="search" id="filter" placeholder="filter students and scenarios" hidden;
        table class="sortable" id="student-table" {
            (head(&STUDENT_COLUMNS))
            tbody {
                @for r in results {
                    @let share = percent(r.score, r.max_score);
                    tr data-filter=(r.id) {
                        td { (student_link(&r.id)) }
                        td class="num" data-value=(r.score) { (r.score) "/" (r.max_score) }
                        td data-value=(format!("{share:.1}")) { (bar(Some("score"), share, None)) }
                        td class="num" { (r.summary.failed) }
                        td class="num" { (seconds(r.elapsed_ms, 1)) }
                        td { (state(r)) }
                    }
                }
            }
        }
    }
}

/// A failed scenario of a student's: its verdict, boards and report.
fn failure(o: &Outcome) -> Markup {
    html! {
        h4 { (verdict_span(o.verdict)) " " (o.name) }
        @if let Some(picture) = divergence_picture(o, Reader::Course) {
            (picture)
        }
        (details_block(o))
    }
}

fn student_section(r: &SubmissionResult) -> Markup {
    let scenario_names: Vec<&str> = r.scenarios.iter().map(|o| o.name.as_str()).collect();
    html! {
        section class="student" id=(anchor(&r.id)) data-filter={ (r.id) " " (scenario_names.join(" ")) } {
            h3 { (r.id) ": " (r.score) "/" (r.max_score) }
            p class="muted" {
                (r.dialect.as_deref().unwrap_or("no dialect"))
                " · graded in " (seconds(r.elapsed_ms, 1)) " s"
            }
            @if let Some(error) = &r.error {
                p { "Not graded: " (error) }
            }
            @if !r.scenarios.is_empty() {
                table {
                    (head(&OUTCOME_COLUMNS))
                    tbody {
                        @for o in &r.scenarios {
                            tr {
                                td { (o.name) }
                                td { (verdict_span(o.verdict)) }
                                td class="num" { (o.score) "/" (o.max_score) }
                                td class="num" { (seconds(o.duration_ms, 2)) }
                            }
                        }
                    }
                }
            }
            @for o in r.scenarios.iter().filter(|o| !o.verdict.passed()) {
                (failure(o))
            }
        }
    }
}

/// The page for a class's `results` and their `summary`, under `title`.
pub fn class_report(results: &[SubmissionResult], summary: &ClassSummary, title: &str) -> String {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1";
                title { (title) }
                // The page's own constant style sheet: CSS, which HTML does not unescape.
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (title) }
                p {
                    (summary.submissions) " submission(s), " (summary.fully_passed)
                    " fully passed, " (summary.not_graded) " not graded; mean score "
                    (super::class::mean_score(summary)) "."
                }
                nav {
                    a href="#distribution" { "distribution" } " · "
                    a href="#scenarios" { "scenarios" } " · "
                    a href="#mistakes" { "common mistakes" } " · "
                    a href="#students" { "students" }
                }
                (distribution(results))
                (failure_rates(summary))
                (common_mistakes(results, summary))
                (student_table(results))
                @for r in results {
                    (student_section(r))
                }
                p class="muted" { "boardgrade " (env!("CARGO_PKG_VERSION")) }
                // The page's own constant script: JavaScript, which HTML does not unescape.
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    let mut out = xml_safe(page).into_string();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::class::summarize;

    /// A name, scenario and output a student controls, each trying to end an attribute or
    /// start a script.
    const HOSTILE: &str = "<script>alert(\"x\")</script>";
    const ESCAPED: &str = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;";

    fn result(id: &str) -> SubmissionResult {
        let outcome = serde_json::json!({
            "file": "s.toml", "line": 1, "name": HOSTILE, "game": "g", "dialect": "d",
            "verdict": "wrong", "score": 0.0, "max_score": 1.0,
            "first_divergence": null, "steps_matched": 0, "steps_total": 1,
            "group": null, "detail": HOSTILE, "stderr_tail": null, "transcript": null,
            "visibility": "visible", "tags": [], "handout": null, "duration_ms": 3,
        });
        serde_json::from_value(serde_json::json!({
            "id": id, "path": id, "dialect": HOSTILE, "score": 0.0, "max_score": 1.0,
            "error": null, "elapsed_ms": 5, "scenarios": [outcome],
            "summary": {
                "passed": 0, "failed": 1, "errors": 0, "score": 0.0, "max_score": 1.0,
                "verdicts": { "wrong": 1 },
            },
        }))
        .expect("a submission result")
    }

    #[test]
    fn text_from_submissions_is_escaped() {
        let results = [result(&format!("eve{HOSTILE}")), result("mallory\"")];
        let page = class_report(&results, &summarize(&results), HOSTILE);
        assert!(!page.contains("<script>alert"), "{page}");
        assert_eq!(page.matches("<script>").count(), 1, "only the page's own");
        // Title, heading, scenario names, dialects, output and students alike.
        assert!(
            page.contains(&format!("<title>{ESCAPED}</title>")),
            "{page}"
        );
        assert!(page.contains(&format!("<h1>{ESCAPED}</h1>")), "{page}");
        assert!(page.contains(&format!("<td>{ESCAPED}</td>")), "{page}");
        assert!(page.contains(&format!("{ESCAPED} · graded in")), "{page}");
        assert!(page.contains(&format!("    {ESCAPED}\n")), "{page}");
        assert!(page.contains(&format!(">eve{ESCAPED}</a>")), "{page}");
        assert!(page.contains("data-filter=\"mallory&quot; "), "{page}");
        assert!(
            page.contains(&format!("<tr data-filter=\"{ESCAPED} s.toml\">")),
            "{page}"
        );
    }
}
