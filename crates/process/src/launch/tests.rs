use super::*;
use std::os::unix::process::ExitStatusExt;

/// A launcher that exits by itself without `ended` is an error, never a
/// program's clean exit; one killed with its group is the run's end.
#[test]
fn a_launcher_silent_on_its_program_is_an_error_unless_killed() {
    let exited = |code: i32| std::process::ExitStatus::from_raw(code << 8);
    let lost = unreported(exited(i32::from(LOST))).unwrap().to_string();
    assert!(lost.contains("could not wait for its program"), "{lost}");
    assert!(unreported(exited(2))
        .unwrap()
        .to_string()
        .contains("arguments"));
    assert!(unreported(exited(0))
        .unwrap()
        .to_string()
        .contains("wrote no report"));
    let killed = std::process::ExitStatus::from_raw(nix::libc::SIGKILL);
    assert!(unreported(killed).is_none());
}
