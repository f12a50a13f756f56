use super::*;
use std::time::{Duration, Instant};

/// Starts `cmd` through the shell, its stderr dropped.
fn start(cmd: &str) -> crate::Program {
    let mut command = crate::command(cmd);
    command.stderr(std::process::Stdio::null());
    crate::Program::spawn(command).unwrap()
}

/// A spinning program's CPU time grows; a sleeping one's stays near zero.
#[test]
fn a_spinner_spends_cpu_time_and_a_sleeper_does_not() {
    let mut spinner = start("sh -c 'while :; do :; done'");
    let mut sleeper = start("sleep 30");
    // Until the spinner has spent 100 ms (however loaded the machine).
    let spent = loop {
        std::thread::sleep(Duration::from_millis(20));
        let spent = cpu_time(spinner.id()).unwrap();
        if spent >= Duration::from_millis(100) {
            break spent;
        }
    };
    let slept = cpu_time(sleeper.id()).unwrap();
    spinner.stop();
    sleeper.stop();
    assert!(spent >= Duration::from_millis(100));
    assert!(slept < Duration::from_millis(100), "{slept:?}");
}

/// A program blocked reading its stdin reads as blocked; one asleep on a
/// timer and one spinning do not.
#[test]
fn a_reader_a_sleeper_and_a_spinner_are_told_apart() {
    let mut programs = [
        start("cat"),
        start("sleep 30"),
        start("sh -c 'while :; do :; done'"),
    ];
    // Until each has settled (a shell starts up first).
    let until = Instant::now() + Duration::from_secs(5);
    let states = loop {
        std::thread::sleep(Duration::from_millis(50));
        let states: Vec<GroupState> = programs.iter().map(|p| group_state(p.id())).collect();
        if (states[0].blocked_reading() && states[1].on_timer && states[2].busy)
            || Instant::now() > until
        {
            break states;
        }
    };
    for p in &mut programs {
        p.stop();
    }
    assert!(states[0].blocked_reading(), "{states:?}");
    assert!(
        !states[1].blocked_reading() && states[1].on_timer,
        "{states:?}"
    );
    assert!(!states[2].blocked_reading() && states[2].busy, "{states:?}");
}
