//! The duel bots' searches as a differential puzzle: core's pruned searches
//! against the reference's exhaustive ones.
//!
//! A case is one state line, the state part of a `duel step` line (23 numbers:
//! `T OR OC`, then `R C H B` and six waits per player); the answer is, for
//! player 1 then player 2, the depth-one maximin value of the `search1` bot
//! (`V1 V2`), the maximin value of the default bot's race search (`R1 R2`), and
//! the race search's fewest losing replies (`L1 L2`): `V1 V2 R1 R2 L1 L2`. The
//! chosen lists may differ between the two sides when rows tie; the numbers may
//! not. Both sides search over the same shared evaluations
//! (`lockstep_core::duel::evaluate` and `race::evaluate_race`), so what is
//! compared is the searches and the engine under them.
//!
//! The generator reuses the duel state generator, then puts skills on cooldown
//! until the matrix is small enough for the reference's plain loops (a cap on
//! rows x columns drawn per case: mostly a few thousand joint actions, sometimes
//! tens of thousands), so a campaign runs hundreds of cases a second and still
//! meets full-skill positions now and then.

pub mod bench;
pub mod levels;

use crate::duel_states::{chebyshev, generate_state, simpler_states};
use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use arbitrary::Unstructured;
use lockstep_core::duel::{
    self as model, legal_lists, search, write_actions, Actions, Dir, State, COOLDOWN, DASH, MOVE,
};
use lockstep_reference::{duel_search as reference, Fuel, OutOfFuel};

pub struct DuelSearch;

pub use lockstep_core::duel_search::Values;

fn list_count(state: &State, player: usize, lists: &mut Vec<Actions>) -> usize {
    legal_lists(state, player, lists);
    lists.len()
}

/// What each of the shrinker's candidates lowers (`simpler_states`): the
/// waits of both players, the hp they lost, their blessing, how far apart
/// they stand, the turn, and the spring's distance from (1, 1). Every
/// candidate lowers one and raises none (a test holds it), so a shrink ends.
pub fn shrink_measure(state: &State) -> [u32; 6] {
    let [a, b] = state.players;
    let waits = a.waits.iter().chain(&b.waits).map(|&w| u32::from(w)).sum();
    let hp_lost = (2 * i32::from(lockstep_core::duel::START_HP) - i32::from(a.hp) - i32::from(b.hp))
        .max(0) as u32;
    let spring = (state.spring.0 - 1 + state.spring.1 - 1).max(0) as u32;
    [
        waits,
        hp_lost,
        u32::from(a.blessing) + u32::from(b.blessing),
        chebyshev(a.pos, b.pos).max(0) as u32,
        u32::from(state.turn),
        spring,
    ]
}

/// How many legal lists `player` has, counted from the rules instead of
/// listed: per slot, the directions each code may take (a wait has one; a
/// first-slot move or dash only those that land on the yard; a waiting skill
/// none), all pairs of slot-0 and slot-1 actions, less the pairs that use one
/// skill twice. Listing them through the reference, twice per cooldown step,
/// cost more than the check. A miscount would only move the cap; a
/// test holds the count to the reference's list.
pub fn count_lists(state: &State, player: usize) -> usize {
    let me = &state.players[player];
    let lands = |d: &&Dir, steps: i8| {
        let (dr, dc) = d.delta();
        model::inside((me.pos.0 + steps * dr, me.pos.1 + steps * dc))
    };
    // Directions per code: [slot 0, slot 1].
    let mut ways = [[0usize; 2]; DASH as usize + 1];
    ways[0] = [1, 1];
    ways[usize::from(MOVE)] = [Dir::STRAIGHT.iter().filter(|d| lands(d, 1)).count(), 4];
    for code in 2..=DASH {
        if me.waits[usize::from(code - 2)] != 0 {
            continue;
        }
        ways[usize::from(code)] = if code == DASH {
            [Dir::ALL.iter().filter(|d| lands(d, 2)).count(), 8]
        } else {
            [4, 4]
        };
    }
    let (first, second): (usize, usize) = (
        ways.iter().map(|w| w[0]).sum(),
        ways.iter().map(|w| w[1]).sum(),
    );
    let twice: usize = ways[2..].iter().map(|w| w[0] * w[1]).sum();
    first * second - twice
}

/// The rule branches `--stats` counts (its rule page's rule index names each in its
/// rule's row): what the core's searches found, and the shapes of state that
/// the evaluations treat apart.
pub const RULE_BRANCHES: [&str; 9] = [
    "a sure win (plain maximin)",
    "every row loses to some reply (plain maximin)",
    "every row can lose: the fewest-losses pass",
    "a row with no losing reply",
    "a player on the spring",
    "the players within two cells",
    "a skill waiting",
    "the last ten turns",
    "a blessing of 8 or 9",
];

impl Puzzle for DuelSearch {
    /// Joint actions resolved, all four searches together (two per player);
    /// the generator keeps each matrix under 40,000.
    const FUEL: u64 = 400_000;

    type Case = State;
    type Answer = Values;

    /// A state the duel generator makes, with skills on cooldown until the
    /// matrix of its lists is small enough for the reference.
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        let mut state = generate_state(u)?;
        let cap = match u.int_in_range(0..=9u8)? {
            0..=5 => 2_000,
            6..=8 => 8_000,
            _ => 40_000,
        };
        // Skills go on cooldown, starting at a drawn skill, on the side with more
        // lists, until rows x columns is under the cap (all on cooldown leaves at
        // most 25 x 25). The lists are counted by the generator's own formula
        // (`count_lists`), never by the core under test, whose bugs would
        // otherwise steer the states generated.
        let start = u.int_in_range(0..=5usize)?;
        loop {
            let counts = [0, 1].map(|p| count_lists(&state, p));
            if counts[0] * counts[1] <= cap {
                return Ok((state, None));
            }
            let p = usize::from(counts[1] > counts[0]);
            let waits = &mut state.players[p].waits;
            match (0..6).map(|k| (start + k) % 6).find(|&s| waits[s] == 0) {
                Some(s) => waits[s] = COOLDOWN[s + 2],
                None => return Ok((state, None)),
            }
        }
    }

    /// What the shrinker lowers ([`shrink_measure`]), then the matrix size,
    /// which goes up as waits come down: a shrink's report reads smaller.
    fn describe(case: &State) -> String {
        let mut lists = Vec::new();
        let counts = [0, 1].map(|p| list_count(case, p, &mut lists));
        let [waits, hp_lost, blessing, apart, turn, _] = shrink_measure(case);
        format!(
            "waits {waits}, hp lost {hp_lost}, blessing {blessing}, {apart} apart, turn {turn} ({} x {} legal lists)",
            counts[0], counts[1]
        )
    }

    fn explain(state: &State) -> Explanation {
        let mut report = format!("state: {}\n", model::write_state(state));
        let mut symptom = "same-values".to_string();
        for p in 0..2 {
            let core = search::maximin(state, p);
            let naive = match reference::maximin(state, p, &mut Fuel::unlimited()) {
                Ok(m) => m,
                Err(OutOfFuel) => unreachable!("unlimited fuel"),
            };
            let row_min = |list: &Actions| {
                naive.rows.iter().find(|(l, _)| l == list).map_or(
                    "not a legal list for the reference".to_string(),
                    |(_, v)| v.to_string(),
                )
            };
            report.push_str(&format!(
                "P{}: core {} with {} ({} x {} lists, {} resolutions); reference {} with {} ({} x {} lists)\n  \
                 the reference's worst case for core's row: {}\n",
                p + 1,
                core.value,
                write_actions(&core.best),
                core.rows,
                core.columns,
                core.resolutions,
                naive.value,
                write_actions(&naive.best),
                naive.rows.len(),
                reference::legal_lists(state, 1 - p).len(),
                row_min(&core.best),
            ));
            if core.value != naive.value && symptom == "same-values" {
                symptom = format!("p{}-value", p + 1);
            }
            let fast = search::Searcher::new().race(state, p, None);
            let slow = reference::race(state, p, &mut Fuel::unlimited())
                .unwrap_or_else(|OutOfFuel| unreachable!("unlimited fuel"));
            report.push_str(&format!(
                "  race search: core {} with {} losing replies (plays {}); reference {} with {}\n",
                fast.value,
                fast.losses,
                write_actions(&fast.best),
                slow.value,
                slow.losses
            ));
            if symptom == "same-values" {
                if fast.value != slow.value {
                    symptom = format!("p{}-race-value", p + 1);
                } else if fast.losses != slow.losses {
                    symptom = format!("p{}-race-losses", p + 1);
                }
            }
        }
        Explanation { symptom, report }
    }

    fn shrink_candidates(case: &State) -> Vec<State> {
        simpler_states(case)
    }

    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    /// Which [`RULE_BRANCHES`] a state goes through, from the core's six values.
    fn rule_branches(state: &State) -> u64 {
        use lockstep_core::duel::WIN_VALUE;
        use lockstep_core::Model;
        let [v1, v2, r1, r2, l1, l2] = state.solve().answer;
        let mut bits = 0u64;
        let mut set = |bit: u32, on: bool| bits |= u64::from(on) << bit;
        set(0, v1 == WIN_VALUE || v2 == WIN_VALUE);
        set(1, v1 == -WIN_VALUE || v2 == -WIN_VALUE);
        set(
            2,
            (r1 == -WIN_VALUE && l1 > 0) || (r2 == -WIN_VALUE && l2 > 0),
        );
        set(3, r1 > -WIN_VALUE || r2 > -WIN_VALUE);
        set(4, state.players.iter().any(|p| p.pos == state.spring));
        set(
            5,
            chebyshev(state.players[0].pos, state.players[1].pos) <= 2,
        );
        set(
            6,
            state.players.iter().any(|p| p.waits.iter().any(|&w| w > 0)),
        );
        set(7, state.turn > lockstep_core::duel::LAST_TURN - 10);
        set(8, state.players.iter().any(|p| p.blessing >= 8));
        bits
    }

    /// Which of the six values differ (either player's alike).
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (core, reference) = (answers.core, answers.reference);
        let (c, r) = (core, reference);
        let names = ["plain-value", "race-value", "race-losses"];
        let differing: Vec<&str> = (0..3)
            .filter(|&k| c[2 * k] != r[2 * k] || c[2 * k + 1] != r[2 * k + 1])
            .map(|k| names[k])
            .collect();
        if differing.is_empty() {
            "same-values".to_string()
        } else {
            differing.join("+")
        }
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}
