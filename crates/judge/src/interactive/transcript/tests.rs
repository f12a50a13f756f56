use super::*;

#[test]
fn a_long_transcript_keeps_its_ends_and_counts_the_middle() {
    let mut t = Transcript::default();
    for i in 0..1000 {
        let speaker = if i % 2 == 0 {
            Speaker::Solution
        } else {
            Speaker::Interactor
        };
        t.say(
            Duration::from_millis(i),
            speaker,
            format!("line {i}").as_bytes(),
        );
    }
    assert_eq!(t.lines, 1000);
    let kept: Vec<_> = t.entries().collect();
    assert_eq!(kept.len(), HEAD + TAIL + 1);
    assert!(kept[HEAD].is_none());
    assert_eq!(kept[0].unwrap().text, "line 0");
    assert_eq!(kept.last().unwrap().unwrap().text, "line 999");
    let short = t.shortened(3, 2);
    assert_eq!(short.lines().count(), 6, "{short}");
    assert!(short.contains("995 entries left out"), "{short}");
    assert!(
        short.contains("sol  line 0") && short.contains("int  line 999"),
        "{short}"
    );
    assert_eq!(t.last_from(Speaker::Solution).unwrap().text, "line 998");
}

#[test]
fn a_long_line_is_clipped_in_memory_and_whole_in_the_file() {
    let path = std::env::temp_dir().join(format!("lockstep-transcript-{}", std::process::id()));
    let mut t = Transcript::streamed_to(std::fs::File::create(&path).unwrap());
    t.say(Duration::ZERO, Speaker::Solution, &[b'x'; 5000]);
    t.note(Duration::from_millis(1), "the solution's output ended");
    t.finish();
    let kept = t.entries().next().unwrap().unwrap();
    assert!(kept.text.ends_with("(5000 bytes in all)"), "{}", kept.text);
    assert!(kept.text.len() < LINE_KEPT + 40);
    let whole = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(whole.lines().next().unwrap().ends_with(&"x".repeat(5000)));
    assert!(
        whole.contains("---  the solution's output ended"),
        "{whole}"
    );
    assert_eq!(t.lines, 1);
}
