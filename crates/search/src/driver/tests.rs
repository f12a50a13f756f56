use super::{bound_list, sparse_batch};

/// A sparse source's batch grows to hold about a batch of cases, within
/// 64 batches, and shrinks back when the cases come dense again.
#[test]
fn a_batch_grows_where_cases_are_sparse_and_shrinks_back() {
    let mut take = 32;
    for _ in 0..20 {
        // One position in sixteen makes a case.
        take = sparse_batch(take, 32, take / 16);
    }
    // 256 positions make 16 cases, half a batch.
    assert_eq!(take, 256);
    for _ in 0..20 {
        take = sparse_batch(take, 32, 0);
    }
    assert_eq!(take, 32 * 64);
    for _ in 0..20 {
        take = sparse_batch(take, 32, take);
    }
    assert_eq!(take, 32);
}

/// The list keeps the lowest positions, whatever order the jobs
/// pushed them in, and never holds twice the bound.
#[test]
fn a_bounded_list_keeps_the_lowest_positions() {
    let most = crate::MAX_LISTED as u64;
    let mut list = Vec::new();
    for position in (0..2 * most + 10).rev() {
        list.push(((), position));
        bound_list(&mut list);
        assert!(list.len() < 2 * crate::MAX_LISTED);
    }
    list.sort_by_key(|(_, p)| *p);
    list.truncate(crate::MAX_LISTED);
    let kept: Vec<u64> = list.iter().map(|(_, p)| *p).collect();
    assert_eq!(kept, (0..most).collect::<Vec<_>>());
}
