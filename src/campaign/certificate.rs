//! What `lockstep verify` gives for each level it checked completely: the
//! cases the level holds, the symmetry classes checked, a digest of the
//! core's answers, the cases the reference could not finish, and the time.
//!
//! The digest adds up one hash per case (the case's size and index, and
//! the core's answer) with wrapping addition, so it does not
//! depend on which job checked which case: two machines that verify the
//! same levels print the same certificate, and the machines of a sharded
//! run add up to the certificate of the whole.

use crate::puzzle::{Attempt, Puzzle};
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
    /// Whether every case of the level was checked and agreed.
    pub fn complete(&self) -> bool {
        self.skipped == 0 && self.disagreements == 0
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

/// The hash of the core's answer, which the level's digest adds up: the
/// answer's value folded field by field into a [`Digest`] (its `Hash`), or
/// the text of what the core did instead of answering. The value, not its
/// judge-format text: writing the duel's answers as text took 40% of its
/// verify time, and the value pins the text (the printer is a function of
/// it). The digest is the same on any machine; a lockstep whose answer
/// types change shape prints other digests, as one whose levels change does.
pub fn answer_hash<P: Puzzle>(core: &Attempt<P::Answer>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut digest = Digest::default();
    match core {
        Attempt::Ran(run) => {
            0u8.hash(&mut digest);
            run.answer.hash(&mut digest);
        }
        other => {
            1u8.hash(&mut digest);
            other
                .show(<P::Case as lockstep_core::Model>::write_answer)
                .hash(&mut digest);
        }
    }
    digest.finish()
}

/// The levels one job checked, added up over the jobs.
#[derive(Debug, Default)]
pub struct LevelTally(pub BTreeMap<u32, LevelCertificate>);

impl LevelTally {
    /// One case of level `size` at `index`, standing for `weight` cases,
    /// with the hash of the core's answer ([`answer_hash`]) and how the
    /// check went.
    pub fn add(
        &mut self,
        (size, index, weight): (u32, u64, u64),
        answer: u64,
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
            mine.digest = mine.digest.wrapping_add(theirs.digest);
            mine.nanos += theirs.nanos;
        }
    }
}
