use super::board;
use crate::games::minichess::{
    play_game, AlphaBetaPlayer, Board, Color, EndReason, GameRecord, GreedyPlayer, Move,
    PerfectPlayer, Player, RandomPlayer, WinReason,
};

fn start(size: usize) -> Board {
    Board::start(size).unwrap()
}

/// Games won by `hero` against random players over `games` seeds, half as White.
fn wins_against_random(hero: &mut dyn Player, size: usize, games: u64) -> u64 {
    (0..games)
        .filter(|&seed| {
            let mut random = RandomPlayer::new(seed);
            let (record, hero_color) = if seed % 2 == 0 {
                (play_game(start(size), hero, &mut random), Color::White)
            } else {
                (play_game(start(size), &mut random, hero), Color::Black)
            };
            record.winner == hero_color
        })
        .count() as u64
}

fn play(size: usize, white: &mut dyn Player, black: &mut dyn Player) -> GameRecord {
    play_game(start(size), white, black)
}

#[test]
fn random_player_is_reproducible_from_its_seed() {
    let game = |seed| {
        play(
            5,
            &mut RandomPlayer::new(seed),
            &mut RandomPlayer::new(seed + 1000),
        )
    };
    assert_eq!(game(7), game(7));
    let distinct: std::collections::HashSet<Vec<Move>> =
        (0..20).map(|seed| game(seed).moves).collect();
    assert!(distinct.len() > 10, "seeds should give different games");
}

#[test]
fn random_player_only_plays_legal_moves_and_passes_when_stuck() {
    let mut random = RandomPlayer::new(3);
    let stuck = board(&[[0, 0, 0], [1, 0, 1], [2, 0, 2]]);
    assert_eq!(random.choose(&stuck, Color::White), None);
    let record = play(6, &mut RandomPlayer::new(1), &mut RandomPlayer::new(2));
    assert!(matches!(record.reason, EndReason::Rule(_)));
}

#[test]
fn greedy_wins_at_once_when_it_can() {
    // White could take (1,1), which does not end the game, or step to the far row.
    let position = board(&[[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 1], [2, 0, 0, 0]]);
    let mv = GreedyPlayer.choose(&position, Color::White).unwrap();
    assert_eq!((mv.from(), mv.to()), ((2, 3), (3, 3)));
}

#[test]
fn greedy_prefers_a_capture_among_safe_moves() {
    let position = board(&[
        [0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 2, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 2, 2],
    ]);
    let mv = GreedyPlayer.choose(&position, Color::White).unwrap();
    assert_eq!(
        (mv.from(), mv.to(), mv.is_capture()),
        ((1, 0), (2, 1), true)
    );
}

/// The opponent of `mover` can win with its next move after `mv`.
fn hands_over_a_win(board: &Board, mv: &Move) -> bool {
    let after = board.apply(mv).unwrap();
    let opponent = mv.color().opponent();
    after
        .successors(opponent)
        .iter()
        .any(|next| next.winner_after_move(opponent) == Some(opponent))
}

#[test]
fn greedy_follows_its_priorities_on_random_positions() {
    // Over positions from random games, greedy's choice must be in the best category
    // available: winning now, a safe capture, a safe move, then anything.
    let mut rng = crate::rng::Rng::new(11);
    let mut seen = [0usize; 4];
    for game in 0..300u64 {
        let size = 4 + (game % 3) as usize;
        let mut position = start(size);
        let mut side = Color::White;
        let mut random = RandomPlayer::new(game);
        while position.outcome(side).is_none() {
            let moves = position.moves(side);
            let wins =
                |mv: &Move| position.apply(mv).unwrap().winner_after_move(side) == Some(side);
            let category = |mv: &Move| match (wins(mv), hands_over_a_win(&position, mv)) {
                (true, _) => 3,
                (false, false) if mv.is_capture() => 2,
                (false, false) => 1,
                (false, true) => 0,
            };
            let best = moves.iter().map(category).max().unwrap();
            let chosen = GreedyPlayer.choose(&position, side).unwrap();
            assert_eq!(
                category(&chosen),
                best,
                "{side} chose {chosen} on\n{position}"
            );
            seen[best] += 1;
            let mv = if rng.chance(1, 2) {
                chosen
            } else {
                random.choose(&position, side).unwrap()
            };
            position = position.apply(&mv).unwrap();
            side = side.opponent();
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "categories seen: {seen:?}");
}

#[test]
fn greedy_beats_random_over_many_seeded_games() {
    for size in [4, 5, 6] {
        let wins = wins_against_random(&mut GreedyPlayer, size, 200);
        assert!(
            wins >= 170,
            "greedy won only {wins} of 200 on {size}x{size}"
        );
    }
}

#[test]
fn alpha_beta_beats_random_and_greedy() {
    let mut searcher = AlphaBetaPlayer::new(4);
    for size in [4, 5] {
        let wins = wins_against_random(&mut searcher, size, 60);
        assert!(
            wins >= 57,
            "alpha-beta won only {wins} of 60 on {size}x{size}"
        );
    }
    let mut won = 0;
    for size in [5, 6] {
        won += u32::from(play(size, &mut searcher, &mut GreedyPlayer).winner == Color::White);
        won += u32::from(play(size, &mut GreedyPlayer, &mut searcher).winner == Color::Black);
    }
    assert!(
        won >= 3,
        "alpha-beta won only {won} of 4 games against greedy"
    );
}

#[test]
fn perfect_player_never_loses_the_side_that_wins_in_theory() {
    // 3 x 3 is Black's, 4 x 4 and 5 x 5 are White's.
    let winners = [(3, Color::Black), (4, Color::White), (5, Color::White)];
    for (size, color) in winners {
        let mut perfect = PerfectPlayer::new();
        let mut opponents: Vec<Box<dyn Player>> = vec![
            Box::new(GreedyPlayer),
            Box::new(AlphaBetaPlayer::new(2)),
            Box::new(AlphaBetaPlayer::new(5)),
        ];
        opponents.extend((0..20).map(|seed| Box::new(RandomPlayer::new(seed)) as Box<dyn Player>));
        for opponent in &mut opponents {
            let record = match color {
                Color::White => play(size, &mut perfect, opponent.as_mut()),
                Color::Black => play(size, opponent.as_mut(), &mut perfect),
            };
            assert_eq!(
                record.winner,
                color,
                "perfect lost on {size}x{size} to {}",
                opponent.name()
            );
        }
    }
}

#[test]
fn perfect_player_beats_itself_from_the_winning_side() {
    for (size, winner) in [(3, Color::Black), (4, Color::White)] {
        let record = play(size, &mut PerfectPlayer::new(), &mut PerfectPlayer::new());
        assert_eq!(record.winner, winner);
    }
}

#[test]
fn perfect_player_falls_back_on_boards_too_large_to_solve() {
    let mut perfect = PerfectPlayer::with_budget(10_000);
    let big = start(8);
    let mv = perfect.choose(&big, Color::White).expect("a move");
    assert!(big.apply(&mv).is_ok());
}

/// A player that offers a move of the wrong board.
struct Cheater;

impl Player for Cheater {
    fn name(&self) -> String {
        "cheater".to_string()
    }

    fn choose(&mut self, _board: &Board, color: Color) -> Option<Move> {
        start(8).moves(color).last().copied()
    }
}

#[test]
fn illegal_or_missing_moves_forfeit_the_game() {
    let record = play(3, &mut Cheater, &mut GreedyPlayer);
    assert_eq!(record.winner, Color::Black);
    assert!(matches!(
        record.reason,
        EndReason::Forfeit { offered: Some(_) }
    ));
    assert!(record.moves.is_empty());
    let record = play(3, &mut GreedyPlayer, &mut Cheater);
    assert_eq!(record.winner, Color::White);
    assert_eq!(record.moves.len(), 1);
}

#[test]
fn games_end_by_a_rule_and_replay_from_the_record() {
    let record = play(4, &mut GreedyPlayer, &mut RandomPlayer::new(5));
    let EndReason::Rule(reason) = record.reason else {
        panic!("unexpected forfeit");
    };
    let mut board = record.start;
    for mv in &record.moves {
        board = board.apply(mv).unwrap();
    }
    assert_eq!(board, record.final_board);
    let side = if record.moves.len() % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let win = board.outcome(side).unwrap();
    assert_eq!((win.winner, win.reason), (record.winner, reason));
    assert!(matches!(
        reason,
        WinReason::ReachedFarRow | WinReason::NoPawnsLeft | WinReason::NoMoveLeft
    ));
}
