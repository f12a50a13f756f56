use super::*;

/// Every rank names a different subset of the right size, and all of
/// them together are every subset.
#[test]
fn subsets_are_each_named_once() {
    for n in 0..12 {
        for k in 0..=n {
            let mut seen: Vec<Vec<u64>> = (0..choose(n, k))
                .map(|r| subset(n, k, r).to_vec())
                .collect();
            for s in &seen {
                assert_eq!(s.len() as u64, k);
                assert!(s.windows(2).all(|w| w[0] < w[1]) && s.iter().all(|&x| x < n));
            }
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len() as u64, choose(n, k), "{n} choose {k}");
        }
    }
    assert_eq!(choose(32, 3), 4960);
    // The table and the product agree where they meet.
    for n in [39u64, 40, 41, 45] {
        for k in 0..=n {
            let product = (0..k.min(n - k)).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
            assert_eq!(choose(n, k), product, "{n} choose {k}");
        }
    }
}

#[test]
fn digits_read_back_what_was_written() {
    let mut d = Digits(5 + 7 * (2 + 3 * 4));
    assert_eq!((d.take(7), d.take(3), d.take(10)), (5, 2, 4));
}
