//! A recorded certificate: each level's case count, classes and digest as a
//! known-good build of lockstep verified them, for `lockstep verify` to hold
//! a new run to. The CI scope's is built in (`certificates/ci.json`).
//!
//! Core and reference agree on a case whatever they share: their model,
//! judge I/O, trace vocabulary and the duel's evaluation. A change there
//! changes both answers alike, and the differential check sees nothing.
//! The digest sees it (`certificate.rs`): a level whose digest is not
//! the recorded one answers differently from the build that recorded it.
//! That is a regression oracle, not a proof (the recorded build may have
//! been wrong too); a change that is meant is recorded again with
//! `lockstep verify --record FILE`.

use super::LevelCertificate;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// The CI scope's certificate, as recorded with
/// `lockstep verify --scope ci --record certificates/ci.json`.
pub const BUILT_IN: &str = include_str!("../../../../certificates/ci.json");

/// What the file names itself as, so that another JSON file given by
/// mistake is refused rather than compared.
const KIND: &str = "lockstep verify certificate";

/// A recorded certificate: for one choice of limits and symmetry, each
/// puzzle's levels.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordedCertificate {
    pub lockstep: String,
    /// `original` or `wide`: the digests hold for this choice only.
    pub limits: String,
    /// Whether one case per symmetry class was checked.
    pub symmetry: bool,
    pub puzzles: BTreeMap<String, Vec<RecordedLevel>>,
}

/// One level as recorded: what a later run must print again.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordedLevel {
    pub size: u32,
    pub cases: u64,
    pub classes: u64,
    /// 16 hexadecimal digits, as verify prints it.
    pub digest: String,
}

impl RecordedLevel {
    fn of(level: &LevelCertificate) -> RecordedLevel {
        RecordedLevel {
            size: level.size,
            cases: level.cases,
            classes: level.classes,
            digest: format!("{:016x}", level.digest),
        }
    }
}

/// How a level of a run compares with the recorded one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgainstRecord {
    Same,
    /// Another count or digest: the recorded level.
    Differs(RecordedLevel),
    /// The record has no such level (or no such puzzle).
    NotRecorded,
    /// The run stopped inside the level (a signal): a part of a level has
    /// no digest to hold to the record.
    CutShort,
}

impl RecordedCertificate {
    /// An empty certificate for runs with these limits and symmetry.
    pub fn new(limits: &str, symmetry: bool) -> RecordedCertificate {
        RecordedCertificate {
            lockstep: KIND.to_string(),
            limits: limits.to_string(),
            symmetry,
            puzzles: BTreeMap::new(),
        }
    }

    /// The built-in one.
    pub fn built_in() -> RecordedCertificate {
        RecordedCertificate::parse(BUILT_IN).expect("certificates/ci.json is a certificate")
    }

    /// Reads a certificate; errors give the line and column.
    pub fn parse(text: &str) -> Result<RecordedCertificate, crate::HarnessError> {
        RecordedCertificate::parse_text(text).map_err(crate::HarnessError::Certificate)
    }

    /// [`RecordedCertificate::parse`], its error in words.
    fn parse_text(text: &str) -> Result<RecordedCertificate, String> {
        let read: RecordedCertificate = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if read.lockstep != KIND {
            return Err(format!(
                "not a recorded certificate: \"lockstep\" is {:?}, not {KIND:?}",
                read.lockstep
            ));
        }
        for (puzzle, levels) in &read.puzzles {
            for level in levels {
                if level.digest.len() != 16 || u64::from_str_radix(&level.digest, 16).is_err() {
                    return Err(format!(
                        "{puzzle} size {}: the digest {:?} is not 16 hexadecimal digits",
                        level.size, level.digest
                    ));
                }
            }
        }
        Ok(read)
    }

    /// Reads the certificate in `path`.
    pub fn load(path: &Path) -> Result<RecordedCertificate> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the certificate {}", path.display()))?;
        RecordedCertificate::parse(&text)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{} is not a recorded certificate", path.display()))
    }

    /// Whether a run with these limits and symmetry can be held to it.
    pub fn applies_to(&self, limits: &str, symmetry: bool) -> bool {
        self.limits == limits && self.symmetry == symmetry
    }

    /// How `level` of `puzzle` compares with the record.
    pub fn compare(&self, puzzle: &str, level: &LevelCertificate) -> AgainstRecord {
        let Some(recorded) = self
            .puzzles
            .get(puzzle)
            .and_then(|levels| levels.iter().find(|l| l.size == level.size))
        else {
            return AgainstRecord::NotRecorded;
        };
        match *recorded == RecordedLevel::of(level) {
            true => AgainstRecord::Same,
            false => AgainstRecord::Differs(recorded.clone()),
        }
    }

    /// Puts `puzzle`'s levels in, in place of those of the same sizes.
    pub fn record(&mut self, puzzle: &str, levels: &[LevelCertificate]) {
        let kept = self.puzzles.entry(puzzle.to_string()).or_default();
        kept.retain(|old| levels.iter().all(|new| new.size != old.size));
        kept.extend(levels.iter().map(RecordedLevel::of));
        kept.sort_by_key(|l| l.size);
    }

    /// Writes it to `path` whole ([`crate::corpus::write_whole`]): a stop
    /// halfway leaves the old certificate, never half a new one.
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        crate::corpus::write_whole(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(size: u32, digest: u64) -> LevelCertificate {
        LevelCertificate {
            size,
            cases: 10,
            classes: 4,
            digest,
            ..LevelCertificate::default()
        }
    }

    #[test]
    fn a_level_is_the_same_only_with_the_same_counts_and_digest() {
        let mut record = RecordedCertificate::new("original", true);
        record.record("robots", &[level(1, 7), level(2, 8)]);
        let text = serde_json::to_string(&record).unwrap();
        let record = RecordedCertificate::parse(&text).unwrap();
        assert_eq!(record.compare("robots", &level(1, 7)), AgainstRecord::Same);
        assert!(matches!(
            record.compare("robots", &level(2, 9)),
            AgainstRecord::Differs(RecordedLevel { size: 2, .. })
        ));
        let more = LevelCertificate {
            cases: 11,
            ..level(1, 7)
        };
        assert!(matches!(
            record.compare("robots", &more),
            AgainstRecord::Differs(_)
        ));
        assert_eq!(
            record.compare("robots", &level(3, 7)),
            AgainstRecord::NotRecorded
        );
        assert_eq!(
            record.compare("duel", &level(1, 7)),
            AgainstRecord::NotRecorded
        );
    }

    #[test]
    fn recording_again_replaces_the_same_sizes_only() {
        let mut record = RecordedCertificate::new("original", true);
        record.record("robots", &[level(1, 7), level(2, 8)]);
        record.record("robots", &[level(2, 5), level(3, 6)]);
        let digests: Vec<_> = record.puzzles["robots"]
            .iter()
            .map(|l| (l.size, l.digest.clone()))
            .collect();
        assert_eq!(
            digests,
            [
                (1, format!("{:016x}", 7)),
                (2, format!("{:016x}", 5)),
                (3, format!("{:016x}", 6))
            ]
        );
    }

    #[test]
    fn a_bad_file_is_refused_with_where() {
        let refused = |text: &str| match RecordedCertificate::parse(text) {
            Err(crate::HarnessError::Certificate(why)) => why,
            other => panic!("not refused as a certificate: {other:?}"),
        };
        let error = refused("{\n  \"lockstep\": 3\n}");
        assert!(error.contains("line 2"), "{error}");
        let other =
            r#"{"lockstep": "verify", "limits": "original", "symmetry": true, "puzzles": {}}"#;
        let error = refused(other);
        assert!(error.contains("not a recorded certificate"), "{error}");
        let short = r#"{"lockstep": "lockstep verify certificate", "limits": "original",
            "symmetry": true, "puzzles": {"robots": [{"size": 1, "cases": 1, "classes": 1, "digest": "12"}]}}"#;
        let error = refused(short);
        assert!(error.contains("robots size 1"), "{error}");
    }

    /// A puzzle's name and the largest sizes of its CI and night scopes.
    fn named_levels<P: crate::puzzle::Puzzle>() -> (&'static str, (u32, u32)) {
        (P::NAME, (P::LEVELS.ci, P::LEVELS.night))
    }

    /// The sizes recorded for `puzzle`, in file order.
    fn sizes(record: &RecordedCertificate, puzzle: &str) -> Vec<u32> {
        record.puzzles[puzzle].iter().map(|l| l.size).collect()
    }

    /// The built-in certificate reads, and is the CI scope's: original
    /// limits, with symmetry, every puzzle of the list.
    #[test]
    fn the_built_in_certificate_covers_every_puzzle() {
        let record = RecordedCertificate::built_in();
        assert!(record.applies_to("original", true));
        for (name, levels) in crate::each_puzzle!(named_levels()) {
            let expected: Vec<u32> = (1..=levels.0).collect();
            assert_eq!(sizes(&record, name), expected, "{name}");
        }
    }

    /// certificates/night.json, which the nightly workflow holds its shards
    /// to, covers every puzzle's night scope, and was recorded by the same
    /// lockstep as the built-in one: their common levels are the same
    /// records (one recorded again without the other fails here, not at
    /// night).
    #[test]
    fn the_night_certificate_covers_the_night_and_matches_ci() {
        let night = RecordedCertificate::parse(include_str!("../../../../certificates/night.json"))
            .expect("certificates/night.json is a certificate");
        let ci = RecordedCertificate::built_in();
        assert!(night.applies_to("original", true));
        for (name, (ci_size, night_size)) in crate::each_puzzle!(named_levels()) {
            let expected: Vec<u32> = (1..=night_size).collect();
            assert_eq!(sizes(&night, name), expected, "{name}");
            assert_eq!(
                &night.puzzles[name][..ci_size as usize],
                &ci.puzzles[name][..],
                "{name}: record both again"
            );
        }
    }
}
