//! Reading a case file as `lockstep shrink`, triage and the overnight
//! script get one: judge text, or the raw bytes a cargo-fuzz artifact holds,
//! turned into a case by the puzzle's generator.

use crate::puzzle::{CaseLimits, Puzzle};
use crate::HarnessError;
use arbitrary::Unstructured;
use lockstep_core::Model;

/// How `lockstep shrink` (and the overnight script) should read a case file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Judge text if the file reads as text, else fuzzer bytes.
    Auto,
    Text,
    /// Raw bytes fed to the puzzle's generator, as cargo-fuzz artifacts are.
    Bytes,
}

/// Whether [`decode_case`] reads `bytes` as judge text (else as fuzzer bytes).
pub fn reads_as_text(bytes: &[u8], encoding: Encoding) -> bool {
    let looks_like_text = bytes
        .iter()
        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace());
    match encoding {
        Encoding::Text => true,
        Encoding::Bytes => false,
        Encoding::Auto => looks_like_text && !bytes.is_empty(),
    }
}

/// Reads a case from judge text or from fuzzer bytes through the generator. In
/// `Auto` mode a file of printable ASCII is taken as judge text, so that a typo in
/// a hand-written case is reported rather than silently decoded as random bytes.
pub fn decode_case<P: Puzzle>(bytes: &[u8], encoding: Encoding) -> Result<P::Case, HarnessError> {
    let unreadable = HarnessError::Unreadable;
    if reads_as_text(bytes, encoding) {
        let text =
            std::str::from_utf8(bytes).map_err(|e| unreadable(format!("not UTF-8 text: {e}")))?;
        P::Case::parse(text).map_err(|e| unreadable(format!("judge text: {e}")))
    } else {
        let limits = CaseLimits::from_env()?;
        P::generate(&mut Unstructured::new(bytes), limits)
            .map(|(case, _)| case)
            .map_err(|e| unreadable(format!("the generator could not use these bytes: {e}")))
    }
}
