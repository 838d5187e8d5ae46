//! A match's games, summed up: the record per opponent, colour and size, the awards earned,
//! and the first lost game against each opponent in each colour, for the report.

use serde::{Deserialize, Serialize};

use crate::games::matches::{AwardDef, GameResult, MatchDef, MatchSide};
use crate::points::number;
use crate::points::Points;

/// Games won and lost against one opponent, in one colour, on one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Record {
    pub opponent: String,
    pub color: String,
    pub size: usize,
    pub won: usize,
    pub lost: usize,
}

/// One award and whether the record earned it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AwardResult {
    pub description: String,
    pub points: Points,
    pub met: bool,
    pub games: usize,
    pub won: usize,
    pub lost: usize,
}

/// Everything a report shows about a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchReport {
    pub games: usize,
    pub records: Vec<Record>,
    pub awards: Vec<AwardResult>,
    /// One lost game per opponent and colour: the first lost by a failure on the
    /// submission's turn, else the first lost.
    pub lost_games: Vec<GameResult>,
}

impl MatchReport {
    pub fn new(def: &MatchDef, games: &[GameResult]) -> Self {
        let mut records: Vec<Record> = Vec::new();
        for game in games {
            let at = records.iter().position(|r| {
                r.opponent == game.opponent && r.color == game.color && r.size == game.size
            });
            let record = match at {
                Some(i) => &mut records[i],
                None => {
                    records.push(Record {
                        opponent: game.opponent.clone(),
                        color: game.color.clone(),
                        size: game.size,
                        won: 0,
                        lost: 0,
                    });
                    records.last_mut().expect("just pushed")
                }
            };
            if game.won {
                record.won += 1;
            } else {
                record.lost += 1;
            }
        }
        let mut lost_games: Vec<GameResult> = Vec::new();
        for game in games.iter().filter(|g| !g.won) {
            let same = |l: &GameResult| l.opponent == game.opponent && l.color == game.color;
            match lost_games.iter().position(same) {
                None => lost_games.push(game.clone()),
                Some(i) if game.forfeit && !lost_games[i].forfeit => lost_games[i] = game.clone(),
                Some(_) => {}
            }
        }
        MatchReport {
            games: games.len(),
            records,
            awards: def.award.iter().map(|a| judge_award(a, games)).collect(),
            lost_games,
        }
    }

    /// Points of the awards met.
    pub fn score(&self) -> Points {
        self.awards.iter().filter(|a| a.met).map(|a| a.points).sum()
    }

    pub fn all_met(&self) -> bool {
        self.awards.iter().all(|a| a.met)
    }

    /// The report as text lines, for people.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "match: {} game(s); won-lost by opponent and colour (per board size):",
            self.games
        )];
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for r in &self.records {
            if !pairs.contains(&(&r.opponent, &r.color)) {
                pairs.push((&r.opponent, &r.color));
            }
        }
        for (opponent, color) in pairs {
            let rows: Vec<&Record> = self
                .records
                .iter()
                .filter(|r| r.opponent == opponent && r.color == color)
                .collect();
            let (won, lost) = rows
                .iter()
                .fold((0, 0), |(w, l), r| (w + r.won, l + r.lost));
            let sizes: Vec<String> = rows
                .iter()
                .map(|r| format!("{0}x{0} {1}-{2}", r.size, r.won, r.lost))
                .collect();
            out.push(format!(
                "  vs {opponent:<10} as {color:<5}  {won}-{lost}  ({})",
                sizes.join(", ")
            ));
        }
        out.push("awards:".into());
        for a in &self.awards {
            out.push(format!(
                "  {:<7} {:>4} pt(s)  {} (won {} of {}, lost {})",
                if a.met { "met" } else { "not met" },
                a.points,
                a.description,
                a.won,
                a.games,
                a.lost
            ));
        }
        if !self.lost_games.is_empty() {
            out.push(
                "lost games (one against each opponent in each colour, a failure first):".into(),
            );
        }
        for g in &self.lost_games {
            out.push(format!(
                "  vs {} as {} on {2}x{2} (seed {3}): {4}",
                g.opponent, g.color, g.size, g.seed, g.ending
            ));
            if g.moves.is_empty() {
                out.push("    no moves were played".into());
            } else {
                for chunk in g.moves.chunks(4) {
                    out.push(format!("    {}", chunk.join(", ")));
                }
            }
            out.push("    final board:".into());
            out.extend(g.final_board.lines().map(|l| format!("    {l}")));
        }
        out
    }
}

/// The games an award counts, and whether their record meets its thresholds.
fn judge_award(award: &AwardDef, games: &[GameResult]) -> AwardResult {
    let counted: Vec<&GameResult> = games
        .iter()
        .filter(|g| award.opponent.as_ref().is_none_or(|o| *o == g.opponent))
        .filter(|g| match award.side {
            MatchSide::Both => true,
            MatchSide::White => g.color == "white",
            MatchSide::Black => g.color == "black",
            MatchSide::Winning => g.winning_side == Some(true),
            MatchSide::Losing => g.winning_side == Some(false),
        })
        .collect();
    let won = counted.iter().filter(|g| g.won).count();
    let lost = counted.len() - won;
    // A threshold on no games at all is not met: there is nothing to show for it.
    let rate_ok = award
        .min_win_rate
        .is_none_or(|rate| !counted.is_empty() && won as f64 >= rate * counted.len() as f64 - 1e-9);
    let losses_ok = award
        .max_losses
        .is_none_or(|most| !counted.is_empty() && lost <= most as usize);
    AwardResult {
        description: describe(award),
        points: award.points(),
        met: rate_ok && losses_ok,
        games: counted.len(),
        won,
        lost,
    }
}

fn describe(award: &AwardDef) -> String {
    let opponent = match &award.opponent {
        Some(o) => format!("against {o}"),
        None => "against every opponent".to_string(),
    };
    let side = match award.side {
        MatchSide::Both => "in either colour",
        MatchSide::White => "as white",
        MatchSide::Black => "as black",
        MatchSide::Winning => "as the side that wins in theory",
        MatchSide::Losing => "as the side that loses in theory",
    };
    let mut conditions = Vec::new();
    if let Some(rate) = award.min_win_rate {
        conditions.push(format!("win at least {}% of games", number(rate * 100.0)));
    }
    if let Some(most) = award.max_losses {
        conditions.push(match most {
            0 => "never lose".to_string(),
            n => format!("lose at most {n}"),
        });
    }
    format!("{opponent} {side}: {}", conditions.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opponent: &str, color: &str, winning: bool, won: bool) -> GameResult {
        GameResult {
            opponent: opponent.into(),
            size: 3,
            color: color.into(),
            winning_side: Some(winning),
            seed: 1,
            won,
            forfeit: false,
            ending: "black reached the far row".into(),
            moves: vec!["white (0,0)-(1,0)".into()],
            final_board: " w\n".into(),
            stop: None,
        }
    }

    fn award(
        opponent: Option<&str>,
        side: MatchSide,
        rate: Option<f64>,
        losses: Option<u32>,
    ) -> AwardDef {
        AwardDef {
            points: 2.0,
            opponent: opponent.map(str::to_string),
            side,
            min_win_rate: rate,
            max_losses: losses,
        }
    }

    #[test]
    fn awards_count_only_their_games() {
        let games = [
            game("random", "black", true, true),
            game("random", "white", false, false),
            game("greedy", "black", true, false),
        ];
        let def = MatchDef {
            opponents: vec!["random".into(), "greedy".into()],
            sizes: vec![3],
            games: 1,
            seed: 0,
            call_time_limit: None,
            award: vec![
                award(Some("random"), MatchSide::Winning, None, Some(0)),
                award(Some("random"), MatchSide::Both, Some(0.75), None),
                award(None, MatchSide::Black, Some(0.5), None),
                award(Some("greedy"), MatchSide::White, Some(0.0), None),
            ],
        };
        let report = MatchReport::new(&def, &games);
        let met: Vec<bool> = report.awards.iter().map(|a| a.met).collect();
        assert_eq!(met, [true, false, true, false]);
        assert_eq!(report.score(), Points::whole(4));
        assert_eq!(report.lost_games.len(), 2);
        let text = report.lines().join("\n");
        assert!(
            text.contains("vs random     as black  1-0  (3x3 1-0)"),
            "{text}"
        );
        assert!(text.contains("never lose"), "{text}");
        assert!(text.contains("white (0,0)-(1,0)"), "{text}");
    }
}
