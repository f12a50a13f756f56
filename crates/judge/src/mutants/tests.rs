use super::*;

#[test]
fn the_first_change_is_the_first_line_that_differs() {
    let model = "a\nb = 1\nc\n";
    assert_eq!(
        first_change(model, "a\nb = 2\nc\n"),
        (2, "b = 1".to_string(), "b = 2".to_string())
    );
    // A line added at the end, and one taken away: the line itself, not
    // the one after it.
    assert_eq!(
        first_change(model, "a\nb = 1\nc\nd\n"),
        (4, String::new(), "d".to_string())
    );
    assert_eq!(
        first_change(model, "a\nc\n"),
        (2, "b = 1".to_string(), String::new())
    );
    // A line inserted in the middle (universalmutator's `continue;` after a
    // line) is an insertion, not a change of the line below it.
    assert_eq!(
        first_change(model, "a\nb = 1\ncontinue;\nc\n"),
        (3, String::new(), "continue;".to_string())
    );
    // A line changed between two equal ones.
    assert_eq!(
        first_change("x\nx\nx\n", "x\ny\nx\n"),
        (2, "x".to_string(), "y".to_string())
    );
}

#[test]
fn an_even_sample_spreads_over_the_whole_list() {
    let items: Vec<u32> = (0..10).collect();
    assert_eq!(even_sample(&items, 20), items);
    assert_eq!(even_sample(&items, 5), [0, 2, 4, 6, 8]);
    assert_eq!(even_sample(&items, 3), [0, 3, 6]);
}

#[test]
fn a_mutant_file_gives_its_number() {
    assert_eq!(number_of(Path::new("/x/sol.mutant.12.cpp")), 12);
    assert_eq!(number_of(Path::new("Main.mutant.0.java")), 0);
    assert_eq!(number_of(Path::new("a.b.mutant.7.py")), 7);
}

#[test]
fn the_fewest_tests_kill_all_the_set_kills() {
    let kills = |list: &[(&str, &[usize])]| -> Vec<(String, Vec<usize>)> {
        list.iter()
            .map(|(n, k)| (n.to_string(), k.to_vec()))
            .collect()
    };
    // One test kills all: it alone; ties go to the earlier test.
    assert_eq!(
        minimal_tests(&kills(&[("a", &[1, 2]), ("b", &[1, 2]), ("c", &[])])),
        ["a"]
    );
    // Greedy: the test that kills most first, then what is left.
    assert_eq!(
        minimal_tests(&kills(&[("a", &[1]), ("b", &[1, 2, 3]), ("c", &[3, 4])])),
        ["b", "c"]
    );
    assert!(minimal_tests(&kills(&[("a", &[]), ("b", &[])])).is_empty());
}
