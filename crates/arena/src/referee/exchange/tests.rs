use super::*;

/// The race behind a flaky end-to-end test, made certain: the flooding bot
/// is dead of its broken pipe before the first line is sent.
#[test]
fn a_bot_that_floods_before_it_is_asked_loses_for_the_long_line() {
    let flood = "while :; do printf xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done";
    let quiet = "cat >/dev/null";
    let mut bots = [Bot::start(flood).unwrap(), Bot::start(quiet).unwrap()];
    let until = Instant::now() + Duration::from_secs(10);
    while bots[0].program.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the flooding bot never died");
        std::thread::sleep(Duration::from_millis(5));
    }
    let [first, _] = exchange(&mut bots, ["READY", "READY"]);
    let fault = first.unwrap_err();
    assert_eq!(fault.kind, FaultKind::Protocol, "{fault}");
    assert!(fault.message.contains("longer than"), "{fault}");
    for bot in &mut bots {
        bot.stop();
    }
}
