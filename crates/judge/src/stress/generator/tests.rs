use super::*;

#[test]
fn most_seeds_giving_one_input_is_a_warning_and_chance_repeats_are_not() {
    // Eight seeds, one input: the lowest two seeds are named, whatever
    // the order the jobs met them in.
    let sample = InputSample::default();
    for (n, seed) in [17, 11, 12, 13, 14, 15, 16, 10].into_iter().enumerate() {
        sample.record(n as u64, seed, "1\n5\n");
    }
    let warning = sample.warning().expect("a warning");
    assert!(warning.contains("8 of the 8 seeds"), "{warning}");
    assert!(warning.contains("(10 and 11 among them)"), "{warning}");
    // Seven is not many; and a small format's repeats (one input in
    // three, over 30 seeds) are not most of the seeds.
    let few = InputSample::default();
    for n in 0..7 {
        few.record(n, n, "same");
    }
    assert_eq!(few.warning(), None);
    let small = InputSample::default();
    for n in 0..30 {
        small.record(n, n, ["1\n1\n", "1\n2\n", "1\n3\n"][n as usize % 3]);
    }
    assert_eq!(small.warning(), None);
    // Cases past the sample are not kept.
    let late = InputSample::default();
    for n in SAMPLED_CASES..SAMPLED_CASES + 10 {
        late.record(n, n, "same");
    }
    assert_eq!(late.warning(), None);
}
