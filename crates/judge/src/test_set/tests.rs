use super::*;

#[test]
fn names_sort_as_tests_are_numbered() {
    let mut names = vec!["10", "2", "a10", "a2", "1", "01-b", "b", "02"];
    names.sort_by(|a, b| natural_order(a, b));
    assert_eq!(names, ["1", "01-b", "02", "2", "10", "a2", "a10", "b"]);
}
