use super::*;

#[test]
fn the_starts_are_their_own_image() {
    let starts = starts();
    assert_eq!(starts.len(), 784);
    // Red's men on 1-8 turn into White's on 25-32 and White's into
    // Red's: the turned starts are the starts again, so the starts with
    // White to move are the images of those with Red to move.
    let mut images: Vec<State> = starts.iter().map(turned).collect();
    images.sort_by_key(key);
    assert_eq!(images, starts);
}

#[test]
fn the_first_layers_decode_their_count_and_count_the_same_with_cores_generator() {
    for depth in 0..=6 {
        let cases = (0..span(depth))
            .filter(|&i| case(depth, i).is_some())
            .count();
        assert_eq!(cases as u64, count(depth), "depth {depth}");
        assert_eq!(by_core(depth), count(depth), "depth {depth}");
    }
}

#[test]
fn a_case_asks_every_legal_move_and_its_near_misses() {
    let case = case(0, 0).expect("a start");
    let written: Vec<&[u32]> = case
        .instances
        .iter()
        .map(|i| i.moves[0].0.as_slice())
        .collect();
    assert!(
        written.windows(2).all(|w| w[0] < w[1]),
        "sorted, no move twice"
    );
    // Red on 1 and 2 (the least start), White's two men on 25 and 26.
    assert!(written.contains(&[1, 5].as_slice()), "a legal step");
    assert!(written.contains(&[1, 6].as_slice()), "a legal step");
    assert!(written.contains(&[1, 5, 9].as_slice()), "two steps");
    assert!(
        written.contains(&[25, 21].as_slice()),
        "the side not to move"
    );
}

mod hunt {
    use super::*;

    /// Every layer, to the last, counts the same with the reference's
    /// move list as with core's generator, and the graph closes where
    /// [`LAST_DEPTH`] says: the layer after it is empty.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn every_layer_counts_the_same_and_the_graph_closes_at_the_last_depth() {
        for depth in 0..=LAST_DEPTH {
            assert_eq!(by_core(depth), count(depth), "depth {depth}");
        }
        assert!(span(LAST_DEPTH) > 0);
        let (mut layers, mut seen) = (Vec::new(), HashSet::default());
        search(&mut layers, &mut seen, LAST_DEPTH + 1, references_children);
        assert_eq!(layers[LAST_DEPTH as usize + 1], Vec::<State>::new());
    }
}
