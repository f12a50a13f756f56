use super::Digest;

/// As a Hasher, every integer is one word whatever its width or sign,
/// and bytes go eight to a word, little-endian.
#[test]
fn a_hashed_value_is_its_words() {
    use std::hash::{Hash, Hasher};
    let mut hashed = Digest::new();
    (1u8, -2i32, 3usize).hash(&mut hashed);
    hashed.write(&[1, 0, 0, 0, 0, 0, 0, 0, 7]);
    let mut pushed = Digest::new();
    for word in [1, -2i64 as u64, 3, 1, 7] {
        pushed.push(word);
    }
    assert_eq!(hashed.finish(), pushed.value());
}

#[test]
fn order_and_content_change_the_digest() {
    let fold = |words: &[u64]| {
        let mut d = Digest::new();
        words.iter().for_each(|&w| d.push(w));
        d.value()
    };
    assert_ne!(fold(&[1, 2]), fold(&[2, 1]));
    assert_ne!(fold(&[1]), fold(&[1, 0]));
    assert_ne!(fold(&[0]), fold(&[]));
}
