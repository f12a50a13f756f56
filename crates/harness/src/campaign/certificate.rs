//! What `lockstep verify` gives for each level it checked completely: the
//! cases the level holds, the symmetry classes checked, a digest of the
//! core's answers, the cases the reference could not finish, and the time.
//!
//! The digest adds up one hash per case (the case's size and index, the
//! core's answer and its step trace's digest, and, for one class in
//! [`JUDGE_EVERY`] and every class of the first indexes, the answer's
//! judge-format text) with wrapping addition,
//! so it does not depend on which job checked which case: two machines that
//! verify the same levels print the same certificate, and the machines of a
//! sharded run add up to the certificate of the whole.
//!
//! Core and reference share their model, judge I/O, trace vocabulary and
//! the duel's evaluation, so comparing them is blind to a change there. The
//! digest is not: a recorded certificate ([`super::recorded`]) holds it to
//! the answers of the build it was recorded with, and the sampled cases'
//! input is written and read back, so the shared parser and printers are
//! checked on every level too.

use crate::puzzle::{Attempt, Puzzle, Verifiable};
use lockstep_core::digest::Digest;
use std::collections::BTreeMap;

/// One level as verified.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct LevelCertificate {
    pub size: u32,
    /// The valid cases of the level (each class counted with its size).
    pub cases: u64,
    /// The cases checked: one a class.
    pub classes: u64,
    /// Classes the reference ran out of fuel on (not verified).
    pub skipped: u64,
    /// Classes on which core and reference disagree.
    pub disagreements: u64,
    /// Sampled classes whose judge-format input, written and read back, is
    /// not the case (or is refused, or the parser panics).
    pub unreadable: u64,
    /// The first of them by index in the level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_unreadable: Option<u64>,
    /// The wrapping sum of each case's hash, as 16 hexadecimal digits.
    #[serde(serialize_with = "hex")]
    pub digest: u64,
    /// The jobs' time on the level, added up (not part of what two runs
    /// must share).
    #[serde(skip)]
    pub nanos: u64,
}

fn hex<S: serde::Serializer>(digest: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{digest:016x}"))
}

impl LevelCertificate {
    /// Whether every case of the level was checked and agreed, and every
    /// sampled one read back.
    pub fn complete(&self) -> bool {
        self.skipped == 0 && self.disagreements == 0 && self.unreadable == 0
    }

    /// The jobs' time on the level, in seconds.
    pub fn seconds(&self) -> f64 {
        self.nanos as f64 / 1e9
    }
}

/// How one case's check went, as a certificate counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseResult {
    Agree,
    Timeout,
    Diverge,
}

impl CaseResult {
    pub fn of<A>(agreement: &crate::puzzle::Agreement<A>) -> CaseResult {
        use crate::puzzle::Agreement;
        match agreement {
            Agreement::Agree => CaseResult::Agree,
            Agreement::Timeout => CaseResult::Timeout,
            Agreement::Diverge { .. } => CaseResult::Diverge,
        }
    }
}

/// One class in this many, by its index in the level, has its answer's
/// judge-format text in the digest (and every class of the first
/// [`JUDGE_ALL_BELOW`] indexes). Every class would cost the duel 40% of its
/// verify time (writing its answers as text); one in sixteen costs little,
/// and a printer that is wrong on a kind of case is wrong on many of them.
/// The small levels, where one in sixteen could be no case at all, are
/// checked whole. The digests recorded in certificates/ depend on it.
pub const JUDGE_EVERY: u64 = 16;

/// Below this index every class of a level has its judge format checked,
/// and below this index divided by a case's parts its input is read back
/// ([`read_back`]).
pub const JUDGE_ALL_BELOW: u64 = 1024;

/// Whether the class at `index` of its level has its answer's text in the
/// digest.
pub fn judged(index: u64) -> bool {
    index < JUDGE_ALL_BELOW || index.is_multiple_of(JUDGE_EVERY)
}

/// About one class in this many has its input written and read back (and
/// every class of a level's first indexes, [`read_back`]). Reading an
/// input back costs more than solving it where a case takes a microsecond
/// (a tenth of the duel's verify time at one in sixteen), and a parser
/// that misreads a kind of case misreads thousands of a level's cases. Not
/// part of the digest: the sample may change without recording
/// certificates again.
pub const READ_BACK_EVERY: u64 = 128;

/// Whether the class at `index` of its level, a case of `parts` parts
/// ([`Verifiable::part_count`]), has its input read back: every class below
/// index [`JUDGE_ALL_BELOW`] / `parts`, so that a level of small cases is
/// read back whole while a level of cases of many lines (the duel's) does
/// not read back a thousand of them first, and past them about one in
/// [`READ_BACK_EVERY`] (the counts for the duel's levels are in
/// docs/notes/2026-12-05-verify-speed.md, "Night"). The index is spread by
/// a multiplicative hash first: a plain multiple of 128 would fix the low
/// digits of every level whose first digits' radixes divide 128, and read
/// back only the cases with those digits at zero.
pub fn read_back(index: u64, parts: u64) -> bool {
    const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;
    index.saturating_mul(parts.max(1)) < JUDGE_ALL_BELOW
        || index.wrapping_mul(SPREAD) >> (64 - READ_BACK_EVERY.trailing_zeros()) == 0
}

/// How a case's judge-format input is read: the model's parser, or a broken
/// one in the tests.
pub type CaseReader<P> = fn(&str) -> Result<<P as Puzzle>::Case, lockstep_core::input::InputError>;

/// The hash of what the core did on the case at `index` of its level, which
/// the level's digest adds up, and whether a sampled case's input read back
/// (`true` when not sampled). The answer's value is folded field by field
/// into a [`Digest`] (its `Hash`), with the step trace's digest; what the
/// core did instead of answering, as text. On a sampled class
/// ([`judged`]) the answer's judge-format text goes in too; on another
/// sample ([`read_back`]) the case's input is written and read back by
/// `read`. The digest is the same
/// on any machine; a lockstep whose answer types change shape prints other
/// digests, as one whose levels change does.
pub fn case_hash<P: Verifiable>(
    case: &P::Case,
    index: u64,
    core: &Attempt<P::Answer>,
    read: CaseReader<P>,
) -> (u64, bool) {
    use lockstep_core::Model;
    use std::hash::{Hash, Hasher};
    let mut digest = Digest::default();
    match core {
        Attempt::Ran(run) => {
            0u8.hash(&mut digest);
            P::hash_answer(&run.answer, &mut digest);
            run.digest.hash(&mut digest);
        }
        other => {
            1u8.hash(&mut digest);
            other
                .show(<P::Case as Model>::write_answer)
                .hash(&mut digest);
        }
    }
    if judged(index) {
        if let Attempt::Ran(run) = core {
            match crate::puzzle::run_caught(|| P::Case::write_answer(&run.answer)) {
                Ok(text) => text.hash(&mut digest),
                Err(panic) => panic.hash(&mut digest),
            }
        }
    }
    let reads_back = !read_back(index, P::part_count(case) as u64)
        || crate::puzzle::run_caught(|| {
            let text = case.write_input();
            read(&text).is_ok_and(|again| &again == case)
        })
        .unwrap_or(false);
    (digest.finish(), reads_back)
}

/// The levels one job checked, added up over the jobs.
#[derive(Debug, Default)]
pub struct LevelTally(pub BTreeMap<u32, LevelCertificate>);

impl LevelTally {
    /// One case of level `size` at `index`, standing for `weight` cases,
    /// with its hash ([`case_hash`]), whether its input read back, and how
    /// the check went.
    pub fn add(
        &mut self,
        (size, index, weight): (u32, u64, u64),
        (answer, reads_back): (u64, bool),
        checked: CaseResult,
        nanos: u64,
    ) {
        let level = self.0.entry(size).or_insert(LevelCertificate {
            size,
            ..LevelCertificate::default()
        });
        level.cases += weight;
        level.classes += 1;
        level.nanos += nanos;
        match checked {
            CaseResult::Agree => {}
            CaseResult::Timeout => level.skipped += 1,
            CaseResult::Diverge => level.disagreements += 1,
        }
        if !reads_back {
            level.unreadable += 1;
            level.first_unreadable = Some(level.first_unreadable.map_or(index, |i| i.min(index)));
        }
        let mut digest = Digest::default();
        digest.push(u64::from(size));
        digest.push(index);
        digest.push(answer);
        level.digest = level.digest.wrapping_add(digest.value());
    }

    /// Adds another job's levels into these.
    pub fn merge(&mut self, other: LevelTally) {
        for (size, theirs) in other.0 {
            let mine = self.0.entry(size).or_insert(LevelCertificate {
                size,
                ..LevelCertificate::default()
            });
            mine.cases += theirs.cases;
            mine.classes += theirs.classes;
            mine.skipped += theirs.skipped;
            mine.disagreements += theirs.disagreements;
            mine.unreadable += theirs.unreadable;
            mine.first_unreadable = match (mine.first_unreadable, theirs.first_unreadable) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            mine.digest = mine.digest.wrapping_add(theirs.digest);
            mine.nanos += theirs.nanos;
        }
    }
}

#[cfg(test)]
mod tests;
