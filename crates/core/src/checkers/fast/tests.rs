use super::*;

#[test]
fn the_tables_follow_the_spec_numbering() {
    // Red 14-23 jumps over 18; a White king 22-31-24-15 over 26, 27 and 19.
    assert_eq!(STEP[3][13], 17);
    assert_eq!(JUMP[3][13], 22);
    assert_eq!((JUMP[3][21], STEP[3][21]), (30, 25));
    assert_eq!((JUMP[1][30], STEP[1][30]), (23, 26));
    assert_eq!((JUMP[0][23], STEP[0][23]), (14, 18));
    for (d, steps) in STEP.iter().enumerate() {
        for (b, &step) in steps.iter().enumerate() {
            let expected = if step == NONE { 0 } else { 1u32 << step };
            assert_eq!(shift(1 << b, d), expected, "direction {d}, bit {b}");
        }
    }
}
