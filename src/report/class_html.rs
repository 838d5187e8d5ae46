//! A class's results as one self-contained HTML page, for instructors: the score
//! distribution, each scenario's failure rate as a bar, the common mistakes with their boards
//! and the students in each group, and a section per student (verdicts, first divergence with
//! boards, time). Everything is inline (style, pictures, a little script that sorts and
//! filters the tables): the page works from a file, fetches nothing, and reads in full with
//! scripting off.

use std::fmt::Write as _;

use super::details::details;
use super::html::{divergence_picture, Reader};
use super::markup::escape;
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

fn verdict_span(v: Verdict) -> String {
    format!(
        r#"<span class="verdict v-{0}">{0}</span>"#,
        escape(v.as_str())
    )
}

fn percent(part: Points, whole: Points) -> f64 {
    (100.0 * part.ratio(whole)).clamp(0.0, 100.0)
}

/// A fragment identifier for a student's section.
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

fn distribution(out: &mut String, results: &[SubmissionResult]) {
    let mut buckets = [0usize; BUCKETS];
    for r in results.iter().filter(|r| r.error.is_none()) {
        let share = percent(r.score, r.max_score) / 100.0;
        buckets[((share * 10.0).floor() as usize).min(BUCKETS - 1)] += 1;
    }
    let tallest = buckets.iter().copied().max().unwrap_or(0).max(1);
    out.push_str(r#"<h2 id="distribution">Score distribution</h2><div class="hist" role="img" aria-label="submissions per score range">"#);
    for count in &buckets {
        let _ = write!(
            out,
            r#"<div style="height:{}%" title="{count} submission(s)"><b>{count}</b></div>"#,
            100 * count / tallest,
        );
    }
    out.push_str(r#"</div><div class="hist-labels">"#);
    for i in 0..BUCKETS {
        let label = if i == BUCKETS - 1 {
            "100%".to_string()
        } else {
            format!("{}–{}%", i * 10, i * 10 + 9)
        };
        let _ = write!(out, "<span>{label}</span>");
    }
    out.push_str("</div>");
}

fn failure_rates(out: &mut String, summary: &ClassSummary) {
    out.push_str(
        r#"<h2 id="scenarios">Scenarios by failure rate</h2><table class="sortable"><thead><tr><th data-sort="text">scenario</th><th data-sort="text">file</th><th data-sort="number" class="num">failed</th><th data-sort="number">failure rate</th></tr></thead><tbody>"#,
    );
    for s in &summary.scenarios {
        let rate = 100.0 * s.failure_rate;
        let _ = write!(
            out,
            r#"<tr data-filter="{name} {file}"><td>{name}</td><td class="muted">{file}</td><td class="num" data-value="{failed}">{failed}/{graded}</td><td class="rate" data-value="{rate:.1}"><div class="bar" title="{rate:.0}%"><span style="width:{rate:.1}%"></span></div> {rate:.0}%</td></tr>"#,
            name = escape(&s.name),
            file = escape(&s.file),
            failed = s.failed,
            graded = s.graded,
        );
    }
    out.push_str("</tbody></table>");
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

fn common_mistakes(out: &mut String, results: &[SubmissionResult], summary: &ClassSummary) {
    out.push_str(r#"<h2 id="mistakes">Common mistakes</h2>"#);
    if summary.common_failures.is_empty() {
        out.push_str("<p>No two submissions failed a scenario the same way.</p>");
    }
    for group in &summary.common_failures {
        let _ = write!(
            out,
            r#"<div class="mistake" data-filter="{} {}"><h3>{} × {} in “{}”"#,
            escape(&group.scenario),
            escape(&group.submissions.join(" ")),
            group.submissions.len(),
            verdict_span(group.verdict),
            escape(&group.scenario)
        );
        if let (Some(step), Some(send)) = (group.step, &group.send) {
            let _ = write!(out, " at step {step}, <code>{}</code>", escape(send));
        }
        out.push_str("</h3>");
        if let Some(o) = example(results, group) {
            if let Some(picture) = divergence_picture(o, Reader::Course) {
                out.push_str(&picture);
            }
        }
        if let (Some(expected), Some(actual)) = (&group.expected, &group.actual) {
            let _ = write!(
                out,
                "<details><summary>expected and actual output</summary><pre>{}</pre></details>",
                escape(&super::diff::render(
                    expected,
                    actual,
                    Style { color: false },
                    ""
                ))
            );
        }
        out.push_str("<p>");
        for (i, id) in group.submissions.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, r##"<a href="#{}">{}</a>"##, anchor(id), escape(id));
        }
        out.push_str("</p></div>");
    }
}

fn student_table(out: &mut String, results: &[SubmissionResult]) {
    out.push_str(
        r#"<h2 id="students">Students</h2><input type="search" id="filter" placeholder="filter students and scenarios" hidden><table class="sortable" id="student-table"><thead><tr><th data-sort="text">student</th><th data-sort="number" class="num">score</th><th data-sort="number">share</th><th data-sort="number" class="num">failed</th><th data-sort="number" class="num">time (s)</th><th data-sort="text">state</th></tr></thead><tbody>"#,
    );
    for r in results {
        let share = percent(r.score, r.max_score);
        let state = match &r.error {
            Some(error) => format!("not graded: {}", escape(error)),
            None if r.passed() => "all passed".to_string(),
            None => r
                .summary
                .verdicts
                .iter()
                .filter(|(v, _)| v.as_str() != "pass")
                .map(|(v, n)| format!("{n} {}", escape(v)))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let _ = write!(
            out,
            r##"<tr data-filter="{id}"><td><a href="#{anchor}">{id}</a></td><td class="num" data-value="{score}">{score}/{max}</td><td data-value="{share:.1}"><div class="bar score"><span style="width:{share:.1}%"></span></div></td><td class="num">{failed}</td><td class="num">{time:.1}</td><td>{state}</td></tr>"##,
            id = escape(&r.id),
            anchor = anchor(&r.id),
            score = r.score,
            max = r.max_score,
            failed = r.summary.failed,
            time = r.elapsed_ms as f64 / 1000.0,
        );
    }
    out.push_str("</tbody></table>");
}

fn student_section(out: &mut String, r: &SubmissionResult) {
    let scenario_names: Vec<&str> = r.scenarios.iter().map(|o| o.name.as_str()).collect();
    let _ = write!(
        out,
        r#"<section class="student" id="{}" data-filter="{} {}"><h3>{}: {}/{}</h3><p class="muted">{} · graded in {:.1} s</p>"#,
        anchor(&r.id),
        escape(&r.id),
        escape(&scenario_names.join(" ")),
        escape(&r.id),
        r.score,
        r.max_score,
        escape(r.dialect.as_deref().unwrap_or("no dialect")),
        r.elapsed_ms as f64 / 1000.0
    );
    if let Some(error) = &r.error {
        let _ = write!(out, "<p>Not graded: {}</p>", escape(error));
    }
    if !r.scenarios.is_empty() {
        out.push_str(
            r#"<table><thead><tr><th>scenario</th><th>verdict</th><th class="num">score</th><th class="num">time (s)</th></tr></thead><tbody>"#,
        );
        for o in &r.scenarios {
            let _ = write!(
                out,
                r#"<tr><td>{}</td><td>{}</td><td class="num">{}/{}</td><td class="num">{:.2}</td></tr>"#,
                escape(&o.name),
                verdict_span(o.verdict),
                o.score,
                o.max_score,
                o.duration_ms as f64 / 1000.0
            );
        }
        out.push_str("</tbody></table>");
    }
    for o in r.scenarios.iter().filter(|o| !o.verdict.passed()) {
        let _ = write!(
            out,
            "<h4>{} {}</h4>",
            verdict_span(o.verdict),
            escape(&o.name)
        );
        if let Some(picture) = divergence_picture(o, Reader::Course) {
            out.push_str(&picture);
        }
        let text = details(o, Style { color: false }, true);
        if !text.is_empty() {
            let _ = write!(out, "<pre>{}</pre>", escape(&text));
        }
    }
    out.push_str("</section>");
}

/// The page for a class's `results` and their `summary`, under `title`.
pub fn class_report(results: &[SubmissionResult], summary: &ClassSummary, title: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{}</title><style>{STYLE}</style></head><body>"#,
        escape(title)
    );
    let _ = write!(
        out,
        r##"<h1>{}</h1><p>{} submission(s), {} fully passed, {} not graded; mean score {}.</p><nav><a href="#distribution">distribution</a> · <a href="#scenarios">scenarios</a> · <a href="#mistakes">common mistakes</a> · <a href="#students">students</a></nav>"##,
        escape(title),
        summary.submissions,
        summary.fully_passed,
        summary.not_graded,
        super::class::mean_score(summary),
    );
    distribution(&mut out, results);
    failure_rates(&mut out, summary);
    common_mistakes(&mut out, results, summary);
    student_table(&mut out, results);
    for r in results {
        student_section(&mut out, r);
    }
    let _ = writeln!(
        out,
        "<p class=\"muted\">boardgrade {}</p><script>{SCRIPT}</script></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}
