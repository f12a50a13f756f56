use super::*;

/// The state starts clear, and a stop sets the flag and, when it is a
/// command's finishing stop, the signal.
#[test]
fn a_stop_sets_the_flag_and_the_signal() {
    assert!(!interrupted());
    assert_eq!(stopped_by(), None);
    note_progress("stress: 5 cases");
    assert_eq!(progress(), "stress: 5 cases");
    stop(Some(15));
    assert!(interrupted());
    assert_eq!(stopped_by(), Some(15));
}
