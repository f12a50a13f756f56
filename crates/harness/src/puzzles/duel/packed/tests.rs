use super::*;
use lockstep_core::duel::{Player, Reason, State, Winner};

/// The bytes read back: the packing loses nothing, so two different
/// results never give the same words.
fn unpack(b: [u8; 24]) -> TurnResult {
    let player = |at: usize| Player {
        pos: (b[at] as i8, b[at + 1] as i8),
        hp: b[at + 2] as i8,
        blessing: b[at + 3],
        waits: b[at + 4..at + 10].try_into().unwrap(),
    };
    let winners = [Winner::P1, Winner::P2, Winner::Draw];
    let reasons = [
        Reason::Hp,
        Reason::Out,
        Reason::Blessing,
        Reason::Illegal,
        Reason::Turns,
    ];
    let outcome = match b[3] {
        0 => Outcome::Ongoing,
        code => Outcome::Ended(
            winners[usize::from((code - 1) / 5)],
            reasons[usize::from((code - 1) % 5)],
        ),
    };
    TurnResult {
        next: State {
            turn: b[0],
            spring: (b[1] as i8, b[2] as i8),
            players: [player(4), player(14)],
        },
        outcome,
    }
}

/// Every result of generated cases, every level's first cases, and
/// results with each field at its extremes, read back whole.
#[test]
fn a_result_reads_back_from_its_bytes() {
    use crate::puzzle::{CaseLimits, Puzzle};
    use lockstep_core::Model;
    let mut results = Vec::new();
    for seed in 0..200u64 {
        let data: Vec<u8> = (0..512u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9) ^ seed.wrapping_mul(31)) as u8)
            .collect();
        let mut u = arbitrary::Unstructured::new(&data);
        if let Ok((case, _)) = super::super::Duel::generate(&mut u, CaseLimits::Original) {
            results.extend(case.solve().answer);
        }
    }
    for size in 1..=3 {
        for index in 0..2_000 {
            if let Some(case) = (super::super::Duel::LEVELS.case)(size, index) {
                results.extend(case.solve().answer);
            }
        }
    }
    assert!(results.len() > 10_000, "{} results", results.len());
    let mut odd = results[0];
    odd.next.turn = 255;
    odd.next.players[1].hp = -128;
    odd.next.players[0].waits = [255, 0, 7, 1, 2, 3];
    odd.outcome = Outcome::Ended(Winner::Draw, Reason::Turns);
    results.push(odd);
    let ended = results.iter().filter(|r| r.outcome != Outcome::Ongoing);
    assert!(ended.count() > 100);
    for r in &results {
        assert_eq!(&unpack(bytes(r)), r);
    }
}
