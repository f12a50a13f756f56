use super::*;

#[test]
fn wilson_matches_known_values() {
    // 200 of 200: the interval is [0.981, 1].
    let (lo, hi) = wilson(200, 200);
    assert!(
        (lo - 0.9812).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9,
        "{lo} {hi}"
    );
    // 50 of 100: symmetric around 0.5, half-width about 0.096.
    let (lo, hi) = wilson(50, 100);
    assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

#[test]
fn losses_are_sorted_into_kinds() {
    use FaultKind::*;
    let one = |kind| [Some(BotFault::new(kind, "")), None];
    let label = |kind| classify(Reason::Illegal, &one(kind));
    let labels = [Timeout, Crash, Ready, Protocol, Illegal].map(label);
    assert_eq!(
        labels,
        ["timeout", "crash", "ready", "malformed", "illegal"]
    );
    // A draw by two failures: the first player's kind.
    let both = [
        Some(BotFault::new(Crash, "")),
        Some(BotFault::new(Timeout, "")),
    ];
    assert_eq!(classify(Reason::Illegal, &both), "crash");
    assert_eq!(classify(Reason::Hp, &[None, None]), "hp");
}
