use super::*;

/// A small xorshift generator: the tests draw keys without a dependency.
fn keys(seed: u64, n: usize) -> Vec<u128> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| (u128::from(next()) << 64 | u128::from(next())) & KEY_MASK)
        .collect()
}

#[test]
fn mix_is_one_to_one_on_the_keys() {
    let mut samples = keys(7, 100_000);
    samples.extend([0, 1, KEY_MASK, 1 << 101, (1 << 64) - 1, 1 << 51]);
    for k in samples {
        let m = mix(k);
        assert!(m <= KEY_MASK, "mix leaves the 102 bits: {k:#x}");
        assert_eq!(unmix(m), k, "unmix(mix({k:#x}))");
        assert_eq!(mix(unmix(k)), k, "mix(unmix({k:#x}))");
    }
    for c in [C1, C2] {
        assert_eq!(c & 1, 1, "an odd multiplier");
        assert_eq!(c.wrapping_mul(inverse(c)) & KEY_MASK, 1);
    }
}

#[test]
fn a_probe_finds_only_its_own_key() {
    // 64 buckets, many more keys: every bucket is fought over.
    let table = Table::new(0);
    let mut stats = TableStats::default();
    let samples = keys(11, 5_000);
    for (i, &k) in samples.iter().enumerate() {
        table.store(k, i as u128 + 1, &mut stats);
        assert_eq!(table.probe(k, &mut stats), Some(i as u128 + 1));
    }
    let mut found = 0;
    for (i, &k) in samples.iter().enumerate() {
        if let Some(count) = table.probe(k, &mut stats) {
            assert_eq!(count, i as u128 + 1, "key {i} reads another's count");
            found += 1;
        }
    }
    assert_eq!(found, 64 * ENTRIES, "every entry kept one of the keys");
    // Keys that differ in one bit only (a square, the side, the depth).
    let base = key(0xFFF, 0xFFF0_0000, 0, false, 9);
    table.store(base, 5, &mut stats);
    for bit in 0..KEY_BITS {
        let other = base ^ 1 << bit;
        assert_ne!(table.probe(other, &mut stats), Some(5), "bit {bit}");
    }
}

#[test]
fn counts_that_do_not_fit_are_not_stored() {
    let table = Table::new(0);
    let mut stats = TableStats::default();
    let count_bits = 64 - table.high_bits;
    let k = key(1, 2, 0, true, 20);
    table.store(k, 1 << count_bits, &mut stats);
    assert_eq!(table.probe(k, &mut stats), None);
    table.store(k, (1 << count_bits) - 1, &mut stats);
    assert_eq!(table.probe(k, &mut stats), Some((1 << count_bits) - 1));
    table.store(key(1, 2, 0, true, 19), 0, &mut stats);
    assert_eq!(table.probe(key(1, 2, 0, true, 19), &mut stats), None);
}
