use super::*;

#[test]
fn the_numbering_follows_the_spec() {
    assert_eq!(square_to_cell(1), Some((0, 1)));
    assert_eq!(square_to_cell(5), Some((1, 0)));
    assert_eq!(square_to_cell(32), Some((7, 6)));
    assert_eq!(square_to_cell(0), None);
    for square in 1..=32 {
        let (row, col) = square_to_cell(square).unwrap();
        assert_eq!((row + col) % 2, 1, "square {square} is dark");
        assert_eq!(cell_to_square(row, col), square);
    }
}

#[test]
fn shallow_perft_matches_the_published_counts() {
    let counts: Vec<u64> = (1..=5)
        .map(|d| perft(d, &mut Fuel::unlimited()).unwrap())
        .collect();
    assert_eq!(counts, [7, 49, 302, 1469, 7361]);
}
