use super::*;
use crate::duel::{check_legal, legal_lists, resolve_turn, Action, Outcome, Winner};

/// The strategy over the whole turn matrix, checked by brute force: its
/// lists are legal, its weights sum to 1, and what it guarantees against
/// every reply (over every opponent list, not only those the double oracle
/// met) is the bound it reports.
#[test]
fn the_strategy_guarantees_what_it_reports() {
    let mut s = State::initial((4, 4), (3, 3), (4, 5));
    s.players[0].waits = [1, 2, 0, 2, 0, 2];
    s.players[1].waits = [0, 2, 2, 0, 1, 2];
    let mut searcher = Searcher::new();
    for player in 0..2 {
        let r = searcher.mixed(&s, player, None);
        let total: f64 = r.lists.iter().map(|l| l.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "{r:?}");
        let mut columns = Vec::new();
        legal_lists(&s, 1 - player, &mut columns);
        let mut worst = f64::INFINITY;
        for &c in &columns {
            let mut sum = 0.0;
            for &(list, w) in &r.lists {
                assert!(check_legal(&s, player, &list).is_ok());
                let a = if player == 0 { [list, c] } else { [c, list] };
                sum += w * f64::from(evaluate_mixed(&resolve_turn(&s, &a), player));
            }
            worst = worst.min(sum);
        }
        assert!((worst - r.lower).abs() < 1e-6, "{worst} against {r:?}");
        assert!(r.upper - r.lower <= TOLERANCE || !r.converged, "{r:?}");
    }
}

/// The safe reply, checked by brute force over every opponent list: in
/// states near the edge (where some lists lose at once to a push) it never
/// plays a list that some reply beats at once, when the maximin says a
/// list exists that no reply beats so; and it is the plain best reply
/// when that one is safe.
#[test]
fn the_safe_reply_never_loses_at_once_when_it_need_not() {
    let mut checked = 0;
    for (p1, p2) in [
        ((1, 4), (3, 4)),
        ((2, 1), (2, 3)),
        ((7, 7), (5, 7)),
        ((1, 2), (1, 4)),
    ] {
        let s = State::initial((4, 4), p1, p2);
        let mut searcher = Searcher::new();
        let safe_exists = searcher.maximin_by(&s, 0, None, evaluate_race).value > -WIN_VALUE;
        let mut columns = Vec::new();
        legal_lists(&s, 1, &mut columns);
        // The opponent is predicted to wait, to step in, and to do either.
        let toward = [Action::new(crate::duel::MOVE, crate::duel::Dir::U); 2];
        for theirs in [
            vec![([Action::WAIT; 2], 1.0)],
            vec![(toward, 1.0)],
            vec![([Action::WAIT; 2], 0.5), (toward, 0.5)],
        ] {
            let reply = searcher.safe_reply(&s, 0, &theirs, None);
            assert!(check_legal(&s, 0, &reply).is_ok());
            let loses = |list: Actions| {
                columns.iter().any(|&c| {
                    let r = resolve_turn(&s, &[list, c]);
                    matches!(r.outcome, Outcome::Ended(Winner::P2, _))
                })
            };
            if safe_exists {
                assert!(!loses(reply), "{p1:?} {p2:?} {theirs:?}: {reply:?}");
                checked += 1;
            }
            let best = searcher.best_reply(&s, 0, &theirs);
            if !loses(best) {
                assert_eq!(reply, best, "{p1:?} {p2:?} {theirs:?}");
            }
        }
    }
    assert!(checked >= 6, "{checked} states with a safe list");
}

#[test]
fn a_sure_win_is_played_pure_and_the_best_reply_takes_it() {
    // P1 one step left of the spring with blessing 9; P2 far away.
    let mut s = State::initial((4, 4), (4, 3), (7, 7));
    s.players[0].blessing = 9;
    let r = Searcher::new().mixed(&s, 0, None);
    assert_eq!(r.lists.len(), 1);
    let reply = Searcher::new().best_reply(&s, 0, &[([Action::WAIT; 2], 1.0)]);
    let out = resolve_turn(&s, &[reply, [Action::WAIT; 2]]).outcome;
    assert!(matches!(out, Outcome::Ended(Winner::P1, _)), "{reply:?}");
}
