use super::*;

/// The read-back sample is about one in [`READ_BACK_EVERY`] past the
/// first indexes, and it reaches every value of a level's low digit
/// whose radix is a power of two (a plain multiple would see only 0).
#[test]
fn the_read_back_sample_is_its_rate_and_sees_every_low_digit() {
    let range = JUDGE_ALL_BELOW..JUDGE_ALL_BELOW + (1 << 20);
    let sampled: Vec<u64> = range.clone().filter(|&i| read_back(i, 1)).collect();
    let expected = (range.end - range.start) / READ_BACK_EVERY;
    assert!(
        sampled.len() as u64 > expected * 9 / 10 && (sampled.len() as u64) < expected * 11 / 10,
        "{} sampled, about {expected} expected",
        sampled.len()
    );
    for radix in [2, 4, 8, 16, 32, 64, 128, 256] {
        let mut seen = vec![false; radix];
        for &i in &sampled {
            seen[(i % radix as u64) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "radix {radix}: {seen:?}");
    }
    assert!((0..JUDGE_ALL_BELOW).all(|i| read_back(i, 1)));
    // A case of 33 parts: indexes below 1,024 / 33 = 31 read back whole.
    assert!((0..31).all(|i| read_back(i, 33)));
    let first = (31..JUDGE_ALL_BELOW).filter(|&i| read_back(i, 33)).count();
    assert!(first < 30, "{first} of the next cases");
}
