//! Checks the chess move generator against the published perft tables in
//! `tests/data/chess-perft.epd`, up to the depths that stay quick in a debug build
//! (`cargo bench --bench chess_perft -- --deep` checks every depth).

use boardgrade::games::chess::epd::{parse_suite, STANDARD_SUITE};
use boardgrade::games::chess::Position;

/// Counts above this are left to the benchmark.
const MAX_NODES: u64 = 5_000_000;

#[test]
fn perft_matches_the_published_tables() {
    let cases = parse_suite(STANDARD_SUITE).expect("the perft suite parses");
    let mut checked = 0;
    for case in &cases {
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= MAX_NODES) {
            assert_eq!(
                case.position.perft(depth),
                expected,
                "{} at depth {depth}",
                case.name
            );
            checked += 1;
        }
    }
    // Every position has at least one count small enough to check here.
    assert!(cases
        .iter()
        .all(|c| c.counts.iter().any(|(_, n)| *n <= MAX_NODES)));
    assert!(checked >= 40, "only {checked} counts checked");
}

#[test]
fn divide_of_kiwipete_sums_to_perft() {
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("valid FEN");
    let split = kiwipete.divide(2);
    assert_eq!(split.len(), 48);
    assert!(split.windows(2).all(|w| w[0].0 < w[1].0), "sorted by move");
    assert!(split.iter().any(|(m, _)| m == "e1g1"));
    assert!(split.iter().any(|(m, _)| m == "e1c1"));
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 2039);
}

#[test]
fn random_games_stay_consistent() {
    use boardgrade::games::chess::{ChessLogic, ChessOptions, Role};
    use boardgrade::rng::Rng;

    let mut rng = Rng::new(2024);
    for _ in 0..40 {
        let mut game = ChessLogic::new(ChessOptions::default());
        for _ in 0..200 {
            let pos = *game.position();
            assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos), "FEN round trip");
            let moves = pos.legal_moves();
            assert_eq!(moves.len() as u64, pos.perft(1));
            assert_eq!(moves.is_empty(), game.result() != "");
            let queen_or_none: Vec<_> = moves
                .iter()
                .filter(|m| matches!(m.promotion(), None | Some(Role::Queen)))
                .collect();
            let Some(&&m) = rng.pick(&queen_or_none) else {
                break;
            };
            let uci = m.uci();
            let answer = game.play_move(&uci[..4]);
            assert!(
                answer.contains(&uci[2..4]) || answer.starts_with("0-0"),
                "{uci} answered {answer:?}"
            );
            let mut expected = pos;
            expected.play(m).expect("a generated move is legal");
            assert_eq!(*game.position(), expected);
        }
    }
}
