use super::*;

/// The reference outputs of SplitMix64 from seed 0 (Vigna's `splitmix64.c`).
#[test]
fn splitmix64_gives_the_published_sequence() {
    let mut random = SplitMix64::new(0);
    assert_eq!(random.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(random.next_u64(), 0x6e78_9e6a_a1b9_65f4);
}

#[test]
fn different_coordinates_give_different_bytes() {
    let bytes = |seed, job, index| {
        let mut buf = [0u8; 32];
        case_bytes(seed, job, index, &mut buf);
        buf
    };
    assert_ne!(bytes(1, 0, 5), bytes(1, 0, 6));
    assert_ne!(bytes(1, 0, 5), bytes(1, 1, 5));
    assert_ne!(bytes(1, 0, 5), bytes(2, 0, 5));
}
