//! Pictures of boards as SVG: the expected and the actual board side by side, the squares
//! that differ marked, the lines that led there written under them. Pure text: no fonts,
//! images or scripts fetched from anywhere (pieces are Unicode chess glyphs drawn in the
//! viewer's own fonts), so one picture serves every report that can show SVG.

use std::fmt::Write as _;

use super::markup::escape;
use crate::games::board_text::{Grid, Side};

/// Side of a square, in pixels.
const SQUARE: usize = 36;
/// Space between the two boards, and around them.
const GAP: usize = 24;
/// Height of a board's caption line.
const CAPTION: usize = 22;
/// Height of each line of text under the boards.
const LINE: usize = 18;
/// Most lines of text under the boards.
const MAX_LINES: usize = 4;
/// Most characters of one line of text under the boards.
const MAX_LINE_CHARS: usize = 90;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const MARK: &str = "#d32f2f";

fn columns(grid: &Grid) -> usize {
    grid.rows.iter().map(Vec::len).max().unwrap_or(0)
}

/// One labelled board with its top-left corner at (`x`, `y`).
fn board(out: &mut String, grid: &Grid, x: usize, y: usize, label: &str, marked: &[&str]) {
    let _ = write!(
        out,
        r#"<text x="{x}" y="{}" class="caption">{}</text>"#,
        y + CAPTION - 7,
        escape(label)
    );
    let top = y + CAPTION;
    for (r, row) in grid.rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (cx, cy) = (x + c * SQUARE, top + r * SQUARE);
            let shade = if (r + c) % 2 == 0 { LIGHT } else { DARK };
            let is_marked = marked.contains(&cell.name.as_str());
            let _ = write!(
                out,
                r#"<g class="square{}"><title>{}</title><rect x="{cx}" y="{cy}" width="{SQUARE}" height="{SQUARE}" fill="{shade}"/>"#,
                if is_marked { " differs" } else { "" },
                escape(&cell.name)
            );
            if is_marked {
                let _ = write!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{MARK}" fill-opacity="0.25" stroke="{MARK}" stroke-width="3"/>"#,
                    cx + 2,
                    cy + 2,
                    SQUARE - 4,
                    SQUARE - 4
                );
            }
            if let Some(piece) = &cell.piece {
                let (size, colour) = match piece.side {
                    Side::Unknown => (11, MARK),
                    _ => (SQUARE * 3 / 4, "#111"),
                };
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{size}" fill="{colour}" text-anchor="middle" dominant-baseline="central" class="piece">{}</text>"#,
                    cx + SQUARE / 2,
                    cy + SQUARE / 2 + 1,
                    escape(&piece.symbol)
                );
            }
            out.push_str("</g>");
        }
    }
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{top}" width="{}" height="{}" fill="none" stroke="#555"/>"##,
        columns(grid) * SQUARE,
        grid.rows.len() * SQUARE
    );
}

fn shorten(line: &str) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        line.to_string()
    } else {
        let cut: String = line.chars().take(MAX_LINE_CHARS - 1).collect();
        format!("{cut}…")
    }
}

/// The expected and the actual board side by side, the `marked` squares (by cell name) on
/// both, and `under` (the lines that led there, a few) below them.
pub fn side_by_side(
    expected: &Grid,
    actual: &Grid,
    actual_caption: &str,
    marked: &[&str],
    under: &[String],
) -> String {
    let width_of = |g: &Grid| columns(g) * SQUARE;
    let height_of = |g: &Grid| g.rows.len() * SQUARE;
    let left = GAP / 2;
    let right = left + width_of(expected) + GAP;
    let boards_bottom = CAPTION + height_of(expected).max(height_of(actual));
    let lines: Vec<String> = under.iter().take(MAX_LINES).map(|l| shorten(l)).collect();
    let width = (right + width_of(actual) + GAP / 2).max(
        lines
            .iter()
            .map(|l| l.chars().count() * 7)
            .max()
            .unwrap_or(0)
            + GAP,
    );
    let height = boards_bottom + 8 + lines.len() * LINE + GAP / 2;
    let mut label = format!(
        "Expected and actual board; {} square(s) differ",
        marked.len()
    );
    if !marked.is_empty() {
        label.push_str(&format!(": {}", marked.join(", ")));
    }
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="boards" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{}">"#,
        escape(&label)
    );
    out.push_str(
        "<style>.caption{font:bold 13px sans-serif;fill:#333}\
         .piece{font-family:'DejaVu Sans','Noto Sans Symbols2','Segoe UI Symbol','Apple Symbols',serif}\
         .under{font:12px monospace;fill:#222}</style>",
    );
    board(&mut out, expected, left, 0, "expected", marked);
    board(&mut out, actual, right, 0, actual_caption, marked);
    for (i, line) in lines.iter().enumerate() {
        let _ = write!(
            out,
            r#"<text x="{left}" y="{}" class="under">{}</text>"#,
            boards_bottom + 8 + (i + 1) * LINE - 4,
            escape(line)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_text::{GridCell, Piece};

    fn strip(pieces: &[Option<(&str, Side)>]) -> Grid {
        Grid {
            rows: vec![pieces
                .iter()
                .enumerate()
                .map(|(i, p)| GridCell {
                    name: format!("cell {i}"),
                    piece: p.map(|(s, side)| Piece::new(s, side)),
                })
                .collect()],
        }
    }

    #[test]
    fn draws_both_boards_marks_the_differing_squares_and_writes_the_move() {
        let expected = strip(&[Some(("♔", Side::White)), None, None]);
        let actual = strip(&[None, Some(("♔", Side::White)), None]);
        let svg = side_by_side(
            &expected,
            &actual,
            "your program",
            &["cell 0", "cell 1"],
            &["sent: move_king 0 RIGHT".to_string()],
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
        // Two marked squares on each board.
        assert_eq!(svg.matches("class=\"square differs\"").count(), 4);
        assert_eq!(svg.matches("class=\"square\"").count(), 2);
        assert_eq!(svg.matches(">♔</text>").count(), 2);
        assert!(svg.contains(">sent: move_king 0 RIGHT</text>"));
        assert!(svg.contains(
            "aria-label=\"Expected and actual board; 2 square(s) differ: cell 0, cell 1\""
        ));
        // Nothing fetched: the only address is the SVG namespace.
        assert_eq!(svg.matches("http").count(), 1);
        assert!(!svg.contains("href"));
        assert_well_formed(&svg);
    }

    #[test]
    fn text_from_a_submission_is_escaped() {
        let expected = strip(&[None]);
        let actual = strip(&[Some(("<script>&", Side::Unknown))]);
        let svg = side_by_side(
            &expected,
            &actual,
            "your program",
            &["cell 0"],
            &["a < b".to_string()],
        );
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;&amp;"));
        assert!(svg.contains("a &lt; b"));
        assert_well_formed(&svg);
    }

    /// Every tag opened is closed, in order (the picture is well-formed XML).
    fn assert_well_formed(svg: &str) {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(at) = rest.find('<') {
            let end = rest[at..].find('>').expect("tag closed") + at;
            let tag = &rest[at + 1..end];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name), "{svg}");
            } else if !tag.ends_with('/') {
                stack.push(tag.split_whitespace().next().unwrap().to_string());
            }
            rest = &rest[end + 1..];
        }
        assert!(stack.is_empty(), "unclosed {stack:?}");
    }
}
