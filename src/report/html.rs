//! HTML pieces shared by the reports that can show pictures: a scenario's divergence with
//! its two boards drawn, and a test's feedback for Gradescope. Written with `maud`, which
//! escapes the headline and the report (a program's output among them) as it writes them.

use maud::{html, Markup};

use super::board_svg::side_by_side;
use super::details::details;
use super::markup::xml_safe;
use super::style::Style;
use crate::games::board_text::{drawn_difference, grid};
use crate::harness::{Divergence, Outcome};

/// Most lines sent before the divergent one written under the boards.
const LINES_BEFORE: usize = 2;

/// The lines written under the boards: the last few lines sent before, then the one sent.
fn lines_under(d: &Divergence) -> Vec<String> {
    let mut lines = Vec::new();
    let before = &d.sent_before[d.sent_before.len().saturating_sub(LINES_BEFORE)..];
    if !before.is_empty() {
        let more = if before.len() + 1 < d.step {
            "...; "
        } else {
            ""
        };
        lines.push(format!("after: {more}{}", before.join("; ")));
    }
    match &d.send {
        Some(send) => lines.push(format!("step {}: sent {send}", d.step)),
        None => lines.push("before any input".to_string()),
    }
    lines
}

/// Who reads a report: the student whose program it is, or the course staff reading a
/// class's; the actual board is captioned for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    Student,
    Course,
}

impl Reader {
    /// The caption of the board the program printed.
    fn actual_caption(self) -> &'static str {
        match self {
            Reader::Student => "your program",
            Reader::Course => "submission",
        }
    }
}

/// The expected and actual boards of the first divergence as SVG, where the game reads and
/// draws its boards and the two outputs hold boards that differ.
pub fn divergence_picture(o: &Outcome, reader: Reader) -> Option<Markup> {
    let d = o.first_divergence.as_ref()?;
    let boards = crate::games::find(&o.game)?.board_reader();
    let (expected, actual, diffs) = drawn_difference(boards, &d.expected, &d.actual)?;
    let (expected, actual) = (grid(boards, &expected)?, grid(boards, &actual)?);
    let marked: Vec<&str> = diffs.iter().map(|c| c.cell.as_str()).collect();
    Some(side_by_side(
        &expected,
        &actual,
        reader.actual_caption(),
        &marked,
        &lines_under(d),
    ))
}

/// What a picture of the boards is called where it is not shown.
pub const PICTURE_LABEL: &str = "expected and actual board";

/// [`divergence_picture`] as a `data:` URL, for an image of its own.
pub fn divergence_data_url(o: &Outcome) -> Option<String> {
    use base64::Engine as _;
    let svg = divergence_picture(o, Reader::Student)?;
    Some(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg.into_string())
    ))
}

/// The whole text report of `o` (diff included) as preformatted text; nothing where there
/// is nothing to report.
pub fn details_block(o: &Outcome) -> Markup {
    let text = details(o, Style { color: false }, true);
    html! {
        @if !text.is_empty() {
            pre { (text) }
        }
    }
}

/// A test's feedback as HTML: the verdict line, the boards of the first divergence, then the
/// whole text report (diff included) below. The boards are an image, not inline SVG: a
/// platform that sanitises the HTML drops the image whole, where inline SVG would leave its
/// labels and pieces as stray text above the diff.
pub fn test_feedback(o: &Outcome, headline: &str) -> String {
    xml_safe(html! {
        @for line in headline.lines() {
            p { (line) }
        }
        @if let Some(url) = divergence_data_url(o) {
            p { img src=(url) alt=(PICTURE_LABEL); }
        }
        (details_block(o))
    })
    .into_string()
}
