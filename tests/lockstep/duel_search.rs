//! The duel bot and its search: legal answers on generated states, the time
//! budget, sure wins taken, core's search value against the reference's, a
//! deliberately blind search caught by the differential, and short tournaments
//! through the real binary.

use crate::support::has;
use lockstep::campaign::{find_and_shrink, generate_case};
use lockstep::duel::bots::turn_budget;
use lockstep::puzzle::{check, check_with, Agreement, Puzzle};
use lockstep::puzzles::{Duel, DuelSearch};
use lockstep::seeds::CASE_BYTES;
use lockstep_core::duel::search::{maximin, Searcher};
use lockstep_core::duel::{
    check_legal, legal_lists, resolve_turn, Actions, Outcome, State, Winner, WIN_VALUE,
};
use lockstep_core::Model;
use lockstep_planted::duel_search::blind_to_dashes;
use lockstep_reference::{duel_search as reference, Fuel};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// States the duel generator reaches: shaped states and every turn of random games.
fn duel_states(count: usize) -> Vec<State> {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut out = Vec::new();
    let mut index = 0;
    while out.len() < count {
        if let Some(case) = generate_case::<Duel>(11, 0, index, &mut buf) {
            out.extend(case.iter().map(|t| t.state));
        }
        index += 1;
    }
    out.truncate(count);
    out
}

fn wins_against_everything(state: &State, player: usize, mine: Actions) -> bool {
    let mut columns = Vec::new();
    legal_lists(state, 1 - player, &mut columns);
    let winner = if player == 0 { Winner::P1 } else { Winner::P2 };
    columns.iter().all(|&c| {
        let actions = if player == 0 { [mine, c] } else { [c, mine] };
        matches!(resolve_turn(state, &actions).outcome, Outcome::Ended(w, _) if w == winner)
    })
}

#[test]
fn the_search_answers_legally_within_a_small_budget() {
    let mut searcher = Searcher::new();
    let mut slow = 0;
    let mut searches = 0;
    let mut cut_short = 0;
    for state in duel_states(1500) {
        for player in 0..2 {
            let start = Instant::now();
            let r = searcher.maximin(&state, player, Some(start + Duration::from_micros(300)));
            // One row past the deadline at most (a row is at most 1089
            // resolutions): 30 ms is far beyond that unless the thread was
            // descheduled, which a shared machine may do now and then.
            slow += usize::from(start.elapsed() > Duration::from_millis(30));
            searches += 1;
            cut_short += usize::from(!r.complete);
            assert!(
                check_legal(&state, player, &r.best).is_ok(),
                "{:?} for player {player} in {state:?}",
                r.best
            );
        }
    }
    assert!(
        slow * 100 <= searches,
        "{slow} of {searches} searches took over 30 ms"
    );
    // The budget is small enough to matter on some states.
    assert!(cut_short > 0);
}

#[test]
fn the_turn_budget_never_spends_the_whole_clock() {
    // A bot that spends its full budget every turn plus 2 ms the clock cannot
    // see still ends the 60 turns with time left, under 800 ms in all.
    let mut left = 1000u64;
    for turn in 1..=60u8 {
        let spent = turn_budget(left, turn).as_millis() as u64 + 2;
        left = left.saturating_sub(spent);
    }
    assert!(1000 - left < 800, "used {} ms", 1000 - left);
    assert_eq!(turn_budget(0, 30), Duration::ZERO);
    assert!(turn_budget(1000, 1) >= Duration::from_millis(3));
    // The per-turn cap bounds a game's search time, whatever the clock says.
    let most: Duration = (1..=60u8).map(|turn| turn_budget(1000, turn)).sum();
    assert!(most <= Duration::from_millis(240), "{most:?}");
}

#[test]
fn a_sure_win_is_taken_whenever_one_exists() {
    let mut found = 0;
    let mut rows = Vec::new();
    for state in duel_states(3000) {
        for player in 0..2 {
            legal_lists(&state, player, &mut rows);
            if !rows
                .iter()
                .any(|&r| wins_against_everything(&state, player, r))
            {
                continue;
            }
            found += 1;
            let r = maximin(&state, player);
            assert_eq!(r.value, WIN_VALUE, "{state:?}");
            assert!(wins_against_everything(&state, player, r.best), "{state:?}");
        }
    }
    assert!(found >= 5, "only {found} states with a sure win");
}

#[test]
fn core_search_values_equal_the_reference_on_generated_states() {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut agreed = 0;
    for index in 0..400 {
        let Some(state) = generate_case::<DuelSearch>(5, 0, index, &mut buf) else {
            continue;
        };
        match check::<DuelSearch>(&state) {
            Agreement::Agree => agreed += 1,
            Agreement::Timeout => {}
            v => panic!("{v:?} on {}", state.write_input()),
        }
        // The chosen list is legal for the reference too, and achieves the value
        // in the reference's own matrix.
        let core = maximin(&state, 0);
        let naive = reference::maximin(&state, 0, &mut Fuel::unlimited()).unwrap();
        let row = naive.rows.iter().find(|(l, _)| *l == core.best).unwrap();
        assert_eq!(row.1, naive.value);
    }
    assert!(agreed >= 390, "{agreed}");
}

#[test]
fn a_search_blind_to_dashes_is_caught_and_shrunk() {
    let found = find_and_shrink::<DuelSearch>(3, 0..3000, |s| {
        check_with::<DuelSearch>(s, blind_to_dashes, DuelSearch::FUEL).is_divergence()
    });
    let (index, shrunk) = found.expect("the differential finds the blind search");
    let original = generate_case::<DuelSearch>(3, 0, index, &mut vec![0; CASE_BYTES])
        .expect("the case the hunt found");
    // What the shrinker lowers: waits, hp below 10, blessing, the turn.
    let size = |s: &State| {
        let player = |p: &lockstep_core::duel::Player| {
            p.waits.iter().map(|&w| u32::from(w)).sum::<u32>()
                + (10 - p.hp.max(0)) as u32
                + u32::from(p.blessing)
        };
        s.players.iter().map(player).sum::<u32>() + u32::from(s.turn)
    };
    assert!(
        shrunk.steps > 0 && size(&shrunk.case) < size(&original),
        "not shrunk: {} from {}",
        size(&shrunk.case),
        size(&original)
    );
    // The real core agrees on the shrunk case.
    assert_eq!(check::<DuelSearch>(&shrunk.case), Agreement::Agree);
}

// ---- tournaments through the real binary ----

fn tournament(opponent: &str, games: usize) -> String {
    let bin = crate::support::BIN;
    let start = Instant::now();
    let out = Command::new(bin)
        .args(["duel", "tournament", "--p1"])
        .arg(format!("{bin} duel bot"))
        .arg("--p2")
        .arg(format!("{bin} duel bot --strategy {opponent} --seed 5"))
        .args(["--games", &games.to_string(), "--jobs", "2", "--seed", "9"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(start.elapsed() < Duration::from_secs(120), "{text}");
    text
}

#[test]
fn the_search_bot_beats_the_baselines_in_short_tournaments() {
    // The search's choices depend on its per-turn deadline, so a loaded machine
    // may change a game: all six against random, at least five against the
    // other baselines (the in-process matches in `duel.rs` hold the rates).
    for (opponent, at_least) in [("random", 6), ("greedy", 5), ("spring", 5), ("chase", 5)] {
        let out = tournament(opponent, 6);
        let wins: usize = out
            .lines()
            .find_map(|l| l.strip_prefix("p1 wins "))
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no result line in {out}"));
        assert!(wins >= at_least, "{out}");
        // Every game ended by a rule (hp, out, blessing, turns), none by a
        // referee's loss (illegal, timeout, crash, malformed, ready).
        let reasons: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once(" by: ").map(|(_, list)| list))
            .flat_map(|list| list.split(", "))
            .map(|entry| entry.split(' ').next().unwrap_or(""))
            .collect();
        assert!(!reasons.is_empty(), "{out}");
        for reason in reasons {
            assert!(
                ["hp", "out", "blessing", "turns"].contains(&reason),
                "{reason}: {out}"
            );
        }
        // The referee reports the search bot's own time per game. Its size is
        // a benchmark's to measure (a loaded or instrumented build takes
        // longer), not a test's: the line is checked, not the figure.
        let line = out
            .lines()
            .find(|l| l.starts_with("p1 time per game"))
            .unwrap_or_else(|| panic!("no time line in {out}"));
        let max = line
            .split("max ")
            .nth(1)
            .and_then(|t| t.trim_end_matches(" ms").parse::<u64>().ok());
        assert!(max.is_some(), "{line}");
    }
}

/// The default bot's strength, in process and exhaustive (no deadline), so the
/// games are the same on every machine: 200 games against each baseline and
/// against the first search, on the ladder's INITs (seed 11). The bars sit a
/// little under what this seed gives (`lockstep duel ladder` measures the same
/// through the referee); the baselines' own bar shows that the spring plan
/// really beats the first search now and then, as issue 16 found.
#[test]
fn the_race_bot_beats_every_baseline_and_the_first_search() {
    use lockstep::duel::bots::Strategy;
    use lockstep::duel::ladder::{match_in_process, score_of};
    let rate = |a, b| {
        let (points, games) = score_of(
            match_in_process(a, b, 200, 11, None)
                .into_iter()
                .map(|g| g.0),
        );
        points / games as f64
    };
    let mut report = Vec::new();
    for (opponent, bar) in [
        (Strategy::Search1, 0.75),
        (Strategy::Spring, 0.97),
        (Strategy::Chase, 0.97),
        (Strategy::Greedy, 0.97),
        (Strategy::Random, 0.99),
    ] {
        let r = rate(Strategy::Search, opponent);
        report.push(format!("{}: {:.1}%", opponent.name(), 100.0 * r));
        assert!(r >= bar, "{report:?}");
    }
    let first_against_spring = rate(Strategy::Search1, Strategy::Spring);
    assert!(first_against_spring < 0.9, "{first_against_spring}");
}

/// The default bot reads the deterministic built-ins (`src/duel/reading.rs`)
/// and beats them, in process and exhaustive (no deadline) so the games are
/// the same on every machine: 40 games against each, sides swapped, on the
/// ladder's INITs (seed 11). The bars sit under what this seed gives; the
/// referee's figures (200 and 400 games) are in the duel notes. Without the
/// reading the same bot scores about 0.9 against `chase` and 0.55 against
/// `search`, so a reading that stopped working fails here.
#[test]
fn the_mixed_bot_reads_the_deterministic_bots_and_beats_them() {
    use lockstep::duel::bots::Strategy;
    use lockstep::duel::ladder::{match_in_process, score_of};
    let mut report = Vec::new();
    for (opponent, bar) in [
        (Strategy::Chase, 0.95),
        (Strategy::Spring, 0.95),
        (Strategy::Greedy, 0.9),
        (Strategy::Search, 0.9),
    ] {
        let games = match_in_process(Strategy::Mixed, opponent, 40, 11, None);
        let (points, n) = score_of(games.into_iter().map(|g| g.0));
        let rate = points / n as f64;
        report.push(format!("{}: {:.3}", opponent.name(), rate));
        assert!(rate >= bar, "{report:?}");
    }
    eprintln!("{report:?}");
}

/// The race search's second pass (the fewest losing replies) is reached by
/// the generated states, and a search that skipped it is caught.
#[test]
fn a_race_search_without_its_second_pass_is_caught() {
    let mut buf = vec![0u8; CASE_BYTES];
    let with_losses = (0..400)
        .filter_map(|i| generate_case::<DuelSearch>(21, 0, i, &mut buf))
        .filter(|s| {
            let a = s.solve().answer;
            a[4] > 0 || a[5] > 0
        })
        .count();
    assert!(with_losses >= 10, "{with_losses} of 400 states");
    let skips_second_pass = |s: &State| {
        let mut run = s.solve();
        run.answer[4] = 0;
        run.answer[5] = 0;
        run
    };
    let found = find_and_shrink::<DuelSearch>(21, 0..400, |s| {
        check_with::<DuelSearch>(s, skips_second_pass, DuelSearch::FUEL).is_divergence()
    });
    assert!(
        found.is_some(),
        "the differential misses a skipped second pass"
    );
}

/// `duel ladder` end to end: built-ins and a `--cmd` bot in one table, each
/// pair's games counted, ratings and endings printed; a malformed `--cmd` or a
/// taken name is a usage error.
#[test]
fn the_ladder_tables_built_ins_and_a_command_bot() {
    let bin = crate::support::BIN;
    let out = Command::new(bin)
        .args(["duel", "ladder", "--strategies", "spring,random", "--cmd"])
        .arg(format!("mine={bin} duel bot --strategy chase --seed 3"))
        .args(["--games", "4", "--jobs", "2", "--seed", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    has(&text, &["3 bots, 4 games a pair"]);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            ["spring ", "random ", "mine "]
                .iter()
                .any(|n| l.starts_with(n))
        })
        .collect();
    // A table row and an endings row per bot.
    assert_eq!(rows.len(), 6, "{text}");
    for row in rows.iter().filter(|r| !r.contains(" max ")) {
        // Two opponents, each a score and an interval.
        assert_eq!(row.matches('(').count(), 2, "{row}");
    }
    // Each bot played 8 games (4 against each of the two others).
    for row in rows.iter().filter(|r| r.contains(" max ")) {
        let games: usize = row
            .split(": ")
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|e| e.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(games, 8, "{row}");
    }
    for bad in ["noequals", "spring=x"] {
        let out = Command::new(bin)
            .args(["duel", "ladder", "--cmd", bad, "--games", "2"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

/// The list the race search plays is the one its numbers describe: its worst
/// race value is the maximin value, or, when every list can lose, it loses to
/// exactly `losses` replies (counted here by brute force over core's engine).
/// The differential compares only the numbers, so this holds the choice.
#[test]
fn the_race_search_plays_the_list_its_numbers_describe() {
    use lockstep_core::duel::race::evaluate_race;
    let mut buf = vec![0u8; CASE_BYTES];
    let mut searcher = Searcher::new();
    let (mut columns, mut second_pass) = (Vec::new(), 0);
    for index in 0..150 {
        let Some(state) = generate_case::<DuelSearch>(31, 0, index, &mut buf) else {
            continue;
        };
        for player in 0..2 {
            let r = searcher.race(&state, player, None);
            legal_lists(&state, 1 - player, &mut columns);
            let values: Vec<i32> = columns
                .iter()
                .map(|&c| {
                    let a = if player == 0 {
                        [r.best, c]
                    } else {
                        [c, r.best]
                    };
                    evaluate_race(&resolve_turn(&state, &a), player)
                })
                .collect();
            let lost = values.iter().filter(|&&v| v == -WIN_VALUE).count() as u32;
            let worst = values.iter().copied().min().unwrap();
            let shown = state.write_input();
            if r.losses > 0 {
                second_pass += 1;
                assert_eq!(lost, r.losses, "P{} on {shown}", player + 1);
            } else {
                assert_eq!(worst, r.value, "P{} on {shown}", player + 1);
            }
        }
    }
    assert!(
        second_pass >= 5,
        "only {second_pass} searches needed the second pass"
    );
}

/// The baseline plans always write a legal list themselves: the bot's
/// fallback to a wait pair for an illegal one would otherwise hide a plan's
/// mistake from every ladder and tournament.
#[test]
fn the_spring_and_chase_plans_are_always_legal() {
    use lockstep::duel::plans::{chase_plan, spring_plan};
    let mut checked = 0;
    for state in duel_states(3000) {
        for player in 0..2 {
            for (name, plan) in [
                ("spring", spring_plan(&state, player)),
                ("chase", chase_plan(&state, player)),
            ] {
                assert!(
                    check_legal(&state, player, &plan).is_ok(),
                    "{name} for P{}: {} on {}",
                    player + 1,
                    lockstep_core::duel::write_actions(&plan),
                    lockstep_core::duel::write_state(&state)
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12_000);
}

#[test]
fn the_generators_list_count_matches_the_reference_list() {
    // The duel-search generator caps rows x columns with a formula of its own;
    // the reference's brute-force list is the oracle for it.
    let states = duel_states(3_000);
    let mut checked = 0;
    for state in &states {
        for p in 0..2 {
            let listed = reference::legal_lists(state, p).len();
            assert_eq!(
                lockstep::puzzles::duel_search::count_lists(state, p),
                listed,
                "player {} in {}",
                p + 1,
                lockstep_core::duel::write_state(state)
            );
            checked += usize::from(listed > 100);
        }
    }
    assert!(checked > 1_000, "only {checked} states with many lists");
}

/// Every shrink candidate lowers one part of the measure the shrink report
/// prints and raises none, so a report's "shrunk from A to B" reads smaller.
#[test]
fn every_shrink_candidate_lowers_the_measure_the_report_prints() {
    use lockstep::puzzles::duel_search::shrink_measure;
    let mut buf = vec![0u8; lockstep::seeds::CASE_BYTES];
    let mut checked = 0;
    for index in 0..300 {
        let Some(state) = generate_case::<DuelSearch>(4, 0, index, &mut buf) else {
            continue;
        };
        let before = shrink_measure(&state);
        for simpler in DuelSearch::shrink_candidates(&state) {
            let after = shrink_measure(&simpler);
            let lowered = (0..6).filter(|&i| after[i] < before[i]).count();
            let raised = (0..6).filter(|&i| after[i] > before[i]).count();
            assert!(
                lowered >= 1 && raised == 0,
                "{before:?} -> {after:?}: {}",
                DuelSearch::describe(&simpler)
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} candidates checked");
}
