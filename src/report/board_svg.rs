//! Pictures of boards as SVG: the expected and the actual board side by side, the squares
//! that differ marked, the lines that led there written under them. Pure text: no fonts,
//! images or scripts fetched from anywhere (pieces are Unicode chess glyphs drawn in the
//! viewer's own fonts), so one picture serves every report that can show SVG. Written with
//! `maud`, which escapes every name, piece and line it is given: they come from submissions
//! and scenarios. Elements are closed explicitly (`<rect ...></rect>`), so that the picture
//! is XML as well as HTML.

use maud::{html, Markup};

use super::markup::xml_safe;
use crate::games::board_text::{Grid, GridCell, Piece, Side};

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

const STYLE: &str = ".caption{font:bold 13px sans-serif;fill:#333}\
     .piece{font-family:'DejaVu Sans','Noto Sans Symbols2','Segoe UI Symbol','Apple Symbols',serif}\
     .under{font:12px monospace;fill:#222}";

fn columns(grid: &Grid) -> usize {
    grid.rows.iter().map(Vec::len).max().unwrap_or(0)
}

/// A piece centred on the square whose top-left corner is (`x`, `y`); one the game cannot
/// name is small and red.
fn piece(piece: &Piece, x: usize, y: usize) -> Markup {
    let (size, colour) = match piece.side {
        Side::Unknown => (11, MARK),
        _ => (SQUARE * 3 / 4, "#111"),
    };
    html! {
        text x=(x + SQUARE / 2) y=(y + SQUARE / 2 + 1) font-size=(size) fill=(colour)
            text-anchor="middle" dominant-baseline="central" class="piece" { (piece.symbol) }
    }
}

/// One square with its top-left corner at (`x`, `y`), named in its title, outlined where
/// `marked`.
fn square(cell: &GridCell, x: usize, y: usize, light: bool, marked: bool) -> Markup {
    html! {
        g.square.differs[marked] {
            title { (cell.name) }
            rect x=(x) y=(y) width=(SQUARE) height=(SQUARE) fill=(if light { LIGHT } else { DARK }) {}
            @if marked {
                rect x=(x + 2) y=(y + 2) width=(SQUARE - 4) height=(SQUARE - 4) fill=(MARK)
                    fill-opacity="0.25" stroke=(MARK) stroke-width="3" {}
            }
            @if let Some(p) = &cell.piece {
                (piece(p, x, y))
            }
        }
    }
}

/// One labelled board with its top-left corner at (`x`, `y`).
fn board(grid: &Grid, x: usize, y: usize, label: &str, marked: &[&str]) -> Markup {
    let top = y + CAPTION;
    html! {
        text x=(x) y=(top - 7) class="caption" { (label) }
        @for (r, row) in grid.rows.iter().enumerate() {
            @for (c, cell) in row.iter().enumerate() {
                (square(
                    cell,
                    x + c * SQUARE,
                    top + r * SQUARE,
                    (r + c) % 2 == 0,
                    marked.contains(&cell.name.as_str()),
                ))
            }
        }
        rect x=(x) y=(top) width=(columns(grid) * SQUARE) height=(grid.rows.len() * SQUARE)
            fill="none" stroke="#555" {}
    }
}

fn shorten(line: &str) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        line.to_string()
    } else {
        let cut: String = line.chars().take(MAX_LINE_CHARS - 1).collect();
        format!("{cut}…")
    }
}

/// What the picture says to a reader who cannot see it.
fn aria_label(marked: &[&str]) -> String {
    let mut label = format!(
        "Expected and actual board; {} square(s) differ",
        marked.len()
    );
    if !marked.is_empty() {
        label.push_str(&format!(": {}", marked.join(", ")));
    }
    label
}

/// The expected and the actual board side by side, the `marked` squares (by cell name) on
/// both, and `under` (the lines that led there, a few) below them.
pub fn side_by_side(
    expected: &Grid,
    actual: &Grid,
    actual_caption: &str,
    marked: &[&str],
    under: &[String],
) -> Markup {
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
    xml_safe(html! {
        svg xmlns="http://www.w3.org/2000/svg" class="boards" width=(width) height=(height)
            viewBox={ "0 0 " (width) " " (height) } role="img" aria-label=(aria_label(marked)) {
            style { (STYLE) }
            (board(expected, left, 0, "expected", marked))
            (board(actual, right, 0, actual_caption, marked))
            @for (i, line) in lines.iter().enumerate() {
                text x=(left) y=(boards_bottom + 8 + (i + 1) * LINE - 4) class="under" { (line) }
            }
        }
    })
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
        )
        .into_string();
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
        let hostile = "<script>alert(\"x\")</script>&";
        let mut expected = strip(&[None]);
        expected.rows[0][0].name = hostile.to_string();
        let actual = strip(&[Some(("<script>&", Side::Unknown))]);
        let svg = side_by_side(
            &expected,
            &actual,
            hostile,
            &[hostile],
            &["a < b \"quoted\"\u{1b}".to_string()],
        )
        .into_string();
        assert!(!svg.contains("<script>"), "{svg}");
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;";
        // The caption, the square's title and the picture's label alike.
        assert!(svg.contains(&format!(">{escaped}</text>")), "{svg}");
        assert!(svg.contains(&format!("<title>{escaped}</title>")), "{svg}");
        assert!(
            svg.contains(&format!(
                "aria-label=\"Expected and actual board; 1 square(s) differ: {escaped}\""
            )),
            "{svg}"
        );
        assert!(svg.contains(">&lt;script&gt;&amp;</text>"), "{svg}");
        assert!(svg.contains("a &lt; b &quot;quoted&quot;\\x1B"), "{svg}");
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
