//! The protocol's board text (8 lines, rank 8 first, one symbol per square, `.` for empty)
//! and its reader, which names squares the chess way (`e4`) in reports.

use crate::games::board_text::{BoardDrawing, Piece, Side};
use crate::games::{BoardReader, FoundBoard};

/// The symbols a board line may hold.
const SYMBOLS: &str = ".PNBRQKpnbrqk";

/// The board's 8 lines, each ended by a newline.
pub fn board_lines(rows: &[[char; 8]; 8]) -> String {
    let mut text = String::with_capacity(72);
    for row in rows {
        text.extend(row.iter());
        text.push('\n');
    }
    text
}

/// The name of the square at `row` (0 = rank 8) and `file` (0 = a).
pub fn square_name(row: usize, file: usize) -> String {
    format!("{}{}", char::from(b'a' + file as u8), 8 - row)
}

fn is_board_line(line: &str) -> bool {
    line.len() == 8 && line.chars().all(|c| SYMBOLS.contains(c))
}

/// Reads the protocol's boards back: any 8 consecutive lines of 8 symbols.
pub struct ChessBoards;

impl BoardReader for ChessBoards {
    fn find_boards(&self, text: &str) -> Vec<FoundBoard> {
        let lines: Vec<&str> = text.lines().collect();
        let mut boards = Vec::new();
        let mut at = 0;
        while at + 8 <= lines.len() {
            let rows = &lines[at..at + 8];
            if !rows.iter().all(|l| is_board_line(l)) {
                at += 1;
                continue;
            }
            let cells = rows
                .iter()
                .enumerate()
                .flat_map(|(row, line)| {
                    line.chars().enumerate().map(move |(file, c)| {
                        let content = if c == '.' {
                            "empty".to_string()
                        } else {
                            c.to_string()
                        };
                        (square_name(row, file), content)
                    })
                })
                .collect();
            boards.push(FoundBoard {
                first_line: at,
                line_count: 8,
                cells,
            });
            at += 8;
        }
        boards
    }

    fn drawing(&self) -> Option<&dyn BoardDrawing> {
        Some(self)
    }
}

impl BoardDrawing for ChessBoards {
    fn columns(&self, _board: &FoundBoard) -> usize {
        8
    }

    /// The Unicode chess glyph of a piece letter (upper case white).
    fn piece(&self, content: &str) -> Option<Piece> {
        const GLYPHS: [(char, &str); 12] = [
            ('K', "♔"),
            ('Q', "♕"),
            ('R', "♖"),
            ('B', "♗"),
            ('N', "♘"),
            ('P', "♙"),
            ('k', "♚"),
            ('q', "♛"),
            ('r', "♜"),
            ('b', "♝"),
            ('n', "♞"),
            ('p', "♟"),
        ];
        let mut chars = content.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return (content != "empty").then(|| Piece::new(content, Side::Unknown));
        };
        let side = if letter.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        GLYPHS
            .iter()
            .find(|(l, _)| *l == letter)
            .map(|(_, glyph)| Piece::new(glyph, side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_text::cell_diffs;

    const START: &str =
        "rnbqkbnr\npppppppp\n........\n........\n........\n........\nPPPPPPPP\nRNBQKBNR\n";
    const AFTER_E4: &str =
        "rnbqkbnr\npppppppp\n........\n........\n....P...\n........\nPPPP.PPP\nRNBQKBNR\n";

    #[test]
    fn writes_rank_eight_first() {
        let mut rows = [['.'; 8]; 8];
        rows[0][4] = 'k';
        rows[7][4] = 'K';
        assert_eq!(
            board_lines(&rows),
            "....k...\n........\n........\n........\n........\n........\n........\n....K...\n"
        );
        assert_eq!(square_name(0, 0), "a8");
        assert_eq!(square_name(7, 7), "h1");
        assert_eq!(square_name(4, 4), "e4");
    }

    #[test]
    fn names_the_squares_that_differ() {
        let diffs: Vec<String> = cell_diffs(&ChessBoards, AFTER_E4, START)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            diffs,
            ["e4: expected P, got empty", "e2: expected empty, got P"]
        );
    }

    #[test]
    fn finds_boards_among_other_lines_only_when_whole() {
        let text = format!("'e2e4'\n{AFTER_E4}'w'\n");
        let boards = ChessBoards.find_boards(&text);
        assert_eq!(boards.len(), 1);
        assert_eq!(boards[0].first_line, 1);
        assert_eq!(boards[0].cells[0], ("a8".to_string(), "r".to_string()));
        assert_eq!(boards[0].cells.len(), 64);
        let seven_rows: String = START.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(ChessBoards.find_boards(&seven_rows).is_empty());
        assert!(ChessBoards
            .find_boards(&START.replace("RNBQKBNR", "RNBQKBN"))
            .is_empty());
    }
}
