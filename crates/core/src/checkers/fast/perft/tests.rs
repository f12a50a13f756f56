use super::*;

/// Positions of seeded random games from the start (kings, captures).
fn positions() -> Vec<(Board, Side)> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    for _ in 0..40 {
        let (mut board, mut side) = (start_board(), Side::Red);
        for _ in 0..80 {
            let moves = legal_moves(&board, side, Captures::Paths);
            if moves.is_empty() {
                break;
            }
            out.push((board, side));
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            board = moves[(state % moves.len() as u64) as usize].1;
            side = side.opponent();
        }
    }
    out
}

#[test]
fn the_written_moves_lead_where_the_counting_generator_goes() {
    let mut kings_seen = false;
    for (board, side) in positions() {
        kings_seen |= board.kings != 0;
        for captures in [Captures::Paths, Captures::Sets] {
            let mut written: Vec<Board> = legal_moves(&board, side, captures)
                .into_iter()
                .map(|(_, after)| after)
                .collect();
            let mut counted = children(&board, side, captures);
            written.sort_by_key(|b| (b.red, b.white, b.kings));
            counted.sort_by_key(|b| (b.red, b.white, b.kings));
            assert_eq!(written, counted, "{board:?} {side:?} {captures:?}");
            let bulk = count_moves(&position_of(&board, side), captures, &mut Vec::new());
            assert_eq!(bulk as usize, counted.len());
        }
    }
    assert!(kings_seen);
}

#[test]
fn the_start_has_the_seven_written_moves() {
    let written: Vec<String> = legal_moves(&start_board(), Side::Red, Captures::Paths)
        .iter()
        .map(|(m, _)| m.to_string())
        .collect();
    assert_eq!(
        written,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
}

#[test]
fn the_deep_counter_matches_the_plain_one() {
    for threads in [1, 2] {
        for table_bytes in [0, 1 << 20] {
            let perft = Perft::new(PerftOptions {
                threads,
                table_bytes,
                ..PerftOptions::default()
            });
            for depth in [0, 1, 6, 9] {
                let counted = perft.count(&start_board(), Side::Red, depth, &mut |_| {});
                assert_eq!(
                    counted,
                    u128::from(perft_parallel(depth, 2)),
                    "depth {depth}"
                );
            }
        }
    }
}
