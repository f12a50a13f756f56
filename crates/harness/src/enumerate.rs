//! Every case of a puzzle up to a size, smallest first: the levels that
//! `lockstep verify` checks completely, where `fuzz` samples. Each puzzle
//! says what its size is (its rule page says what a level holds and how
//! many cases it has) in a [`Levels`], in a file of its own here.
//!
//! A level is a numbered space of coordinates, `0..span(size)`; the case at
//! an index is made by decoding the index digit by digit ([`Digits`]), and
//! coordinates that make no valid case are skipped. Decoding rather than
//! listing is what lets any machine of a sharded run, or a run resumed,
//! start at any index without making the cases before it.
//!
//! Where the rules are symmetric (the board's rotations and reflections
//! with the directions mapped, a colour swap), the reference solves one case
//! of each class, counted with its class's size ([`Levels::least`]), and
//! the core answers every image of it, each held to the class's answer (a
//! symmetry is an assumption about the core that a bug can break): for
//! checkers the position with Red to move, for footholds the least of the
//! board's eight images as numbers, for new_game2 the least of its images
//! by hash ([`class_of`]). Any rule that picks one case of each class
//! would do. The tests hold each puzzle's pick to its images, the count of
//! every level (the classes' sizes added up) to one computed another way,
//! and a run with symmetry to one without.

use lockstep_core::Model;
use std::hash::{Hash, Hasher};

/// A puzzle's levels: what its sizes are and how each is enumerated.
pub struct Levels<C: 'static> {
    /// What a level of this size holds, in words.
    pub size: &'static str,
    /// The largest size of `verify --scope ci` and of `--scope night`.
    pub ci: u32,
    pub night: u32,
    /// The last level that holds a case: every level past it is empty, so
    /// a size past it is refused rather than run (it would verify nothing
    /// more, and a size near `u32::MAX` would allocate without bound).
    pub last: u32,
    /// The number of indices of level `size` (valid cases or not).
    pub span: fn(u32) -> u64,
    /// The case at `index` of level `size`, or `None` when those
    /// coordinates make no valid case.
    pub case: fn(u32, u64) -> Option<C>,
    /// The number of valid cases of level `size`, counted another way than
    /// by `case` (a closed form): what the tests hold the decoding to.
    pub count: fn(u32) -> u64,
    /// The images of a case under the rules' symmetries, itself included;
    /// each has the case's answer. `only_itself` where the rules have none
    /// that keep the answer.
    pub images: fn(&C) -> Vec<C>,
    /// The case's class, as the enumeration sees it: `Some(size of the
    /// class)` when the case is the one checked for its class, `None` for
    /// the others. Exactly one case of each class ([`Levels::images`]) is
    /// picked; [`class_of`] picks by hash from the images, and a puzzle
    /// whose images are dear to build (every footholds image is a new
    /// board) picks in a way of its own, which the tests hold to `images`.
    /// [`alone`] where the rules have no symmetry.
    pub least: fn(&C) -> Option<u64>,
    /// Whether the case at an index of a level may be its class's pick,
    /// told from the index alone: `false` only where [`Levels::least`]
    /// would say `None`, so that a run with symmetry skips decoding it.
    /// [`any_index`] where the index does not tell.
    pub may_pick: fn(u32, u64) -> bool,
    /// The first index at or after `index` of level `size` that may hold a
    /// case a run checks (with symmetry when the flag says so), told from
    /// the index alone: every index skipped makes no case, or only a case
    /// that is not its class's pick. A level whose indexes are refused in
    /// long runs (checkers: a side to move, a start square of the other
    /// side) skips each run at once rather than index by index.
    /// [`every_index`] where the index does not tell.
    pub next: fn(u32, u64, bool) -> u64,
}

impl<C> Clone for Levels<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Levels<C> {}

/// The images of a case with no symmetry: itself.
pub fn only_itself<C: Clone>(case: &C) -> Vec<C> {
    vec![case.clone()]
}

/// Any index may hold its class's pick.
pub fn any_index(_: u32, _: u64) -> bool {
    true
}

/// Every index may hold a case: none is skipped.
pub fn every_index(_: u32, index: u64, _: bool) -> u64 {
    index
}

/// The class of a case with no symmetry: itself alone.
pub fn alone<C>(_: &C) -> Option<u64> {
    Some(1)
}

/// Where a case stands in its symmetry class: checked as the class's one
/// case (`Some(size of the class)`), or `None`, another case of a class
/// checked through its least member.
///
/// The order that picks the least member is the case's hash ([`key`]),
/// its judge text where two images share a hash. It was the judge text
/// alone: writing every image as text made a footholds or checkers run
/// with symmetry four to six times slower than checking every case. Any
/// fixed total order would do; this one is cheap and the same on every
/// machine (the hasher is lockstep's own [`Digest`]).
///
/// [`Digest`]: lockstep_core::digest::Digest
pub fn class_of<C: Model + Hash + PartialEq>(case: &C, images: fn(&C) -> Vec<C>) -> Option<u64> {
    let images = images(case);
    if images.len() <= 1 {
        return Some(1);
    }
    let own = key(case);
    let mut distinct: Vec<(u64, &C)> = Vec::with_capacity(images.len());
    for image in &images {
        let theirs = key(image);
        if theirs < own
            || theirs == own && image != case && image.write_input() < case.write_input()
        {
            return None;
        }
        if !distinct
            .iter()
            .any(|&(k, seen)| k == theirs && seen == image)
        {
            distinct.push((theirs, image));
        }
    }
    Some(distinct.len() as u64)
}

/// A case's place in the order of [`class_of`]: its hash under lockstep's
/// own hasher.
pub fn key<C: Hash>(case: &C) -> u64 {
    let mut digest = lockstep_core::digest::Digest::default();
    case.hash(&mut digest);
    digest.finish()
}

/// An index read as digits of mixed radix, the lowest first: each
/// [`Digits::take`] takes the next digit below its radix.
pub struct Digits(pub u64);

impl Digits {
    /// The next digit, in `0..radix`.
    pub fn take(&mut self, radix: u64) -> u64 {
        let digit = self.0 % radix;
        self.0 /= radix;
        digit
    }

    /// The next digit as a choice among `options`.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.take(options.len() as u64) as usize]
    }
}

/// The grids of `k` cells with both sides within `1..=max_side`, as
/// `(rows, columns)`, fewest rows first. An iterator, not a list: the
/// levels decode one per index, and an allocation per index was a fifth of
/// their time.
pub fn shapes(k: u32, max_side: usize) -> impl Iterator<Item = (usize, usize)> + Clone {
    let k = k as usize;
    (1..=max_side)
        .filter(move |&rows| k.is_multiple_of(rows) && (1..=max_side).contains(&(k / rows)))
        .map(move |rows| (rows, k / rows))
}

/// The largest `n` of [`BINOMIAL`].
const TABLE: usize = 40;

/// Pascal's triangle up to `n = TABLE`, made by the compiler: `choose` is
/// called a few times per index in the subset decoding, and computing each
/// by a product was a third of checkers' verify time.
const BINOMIAL: [[u64; TABLE + 1]; TABLE + 1] = {
    let mut t = [[0u64; TABLE + 1]; TABLE + 1];
    let mut n = 0;
    while n <= TABLE {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `n` choose `k`, exactly (the sizes counted here stay far below overflow).
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    if n as usize <= TABLE {
        return BINOMIAL[n as usize][k as usize];
    }
    (0..k.min(n - k)).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The most elements a [`subset`] holds (a checkers board's squares).
pub const MAX_SUBSET: usize = 32;

/// The `rank`-th subset of `k` elements of `0..n` in colex order (each
/// subset exactly once as `rank` runs over `0..choose(n, k)`), ascending.
/// Held in place (no allocation) and found by binary search: the levels
/// decode one per index.
pub fn subset(n: u64, k: u64, mut rank: u64) -> Subset {
    assert!(k as usize <= MAX_SUBSET, "a subset of {k} elements");
    let mut out = Subset([0; MAX_SUBSET], k as usize);
    let mut top = n;
    for slot in (0..k).rev() {
        // The largest element c below top with choose(c, slot + 1) <= rank
        // (choose grows with c, and choose(slot, slot + 1) = 0).
        let (mut lo, mut hi) = (slot, top - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if choose(mid, slot + 1) <= rank {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        rank -= choose(lo, slot + 1);
        out.0[slot as usize] = lo;
        top = lo;
    }
    out
}

/// A subset as [`subset`] gives it: its elements, ascending.
#[derive(Debug, Clone, Copy)]
pub struct Subset([u64; MAX_SUBSET], usize);

impl std::ops::Deref for Subset {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        &self.0[..self.1]
    }
}

#[cfg(test)]
mod tests;
