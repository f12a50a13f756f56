use super::same_output;

/// Each clause of the rule stated at `judge_lines` (and in the guide).
#[test]
fn the_stated_whitespace_rule_is_the_comparison() {
    // Removed: whitespace at the end of a line, at the end of the output.
    assert!(same_output("1 2 \t\n3\r\n", "1 2\n3"));
    assert!(same_output("7\n\n \n\n", "7"));
    assert!(same_output("", "\n\n"));
    // Counted: leading spaces, inner spacing, tabs, inner empty lines.
    assert!(!same_output(" 7", "7"));
    assert!(!same_output("1  2", "1 2"));
    assert!(!same_output("1\t2", "1 2"));
    assert!(!same_output("\n7", "7"));
    assert!(!same_output("1\n\n2", "1\n2"));
}
