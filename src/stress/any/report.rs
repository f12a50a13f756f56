//! What a stress of any problem prints: the summary with where the time
//! went per case, the failing seeds, and each shrunk failure's report.

use super::{AnyFailure, AnyOptions, AnyReport};
use crate::stress::Judgement;

/// A program's output for a report; an empty one said as such.
fn shown(text: &str) -> String {
    if text.is_empty() {
        "    (nothing)\n".to_string()
    } else {
        crate::text::indent(text)
    }
}

impl std::fmt::Display for AnyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.counts;
        writeln!(f, "{}", c.line("stress", self.elapsed))?;
        if c.cases > 0 {
            let t = &self.times;
            let ms = |nanos: u64| nanos as f64 / 1e6 / c.cases as f64;
            write!(
                f,
                "per case: {:.3} ms generator, {:.3} ms brute force, {:.3} ms solution",
                ms(t.generator),
                ms(t.brute),
                ms(t.solution)
            )?;
            if t.validator > 0 {
                write!(f, ", {:.3} ms validator", ms(t.validator))?;
            }
            if t.checker > 0 {
                write!(f, ", {:.3} ms checker", ms(t.checker))?;
            }
            writeln!(f, "; {:.3} ms in lockstep", ms(t.own))?;
        }
        if let Some(line) = self.memory.line() {
            writeln!(f, "{line}")?;
        }
        let failing: Vec<(&'static str, String)> = self
            .failing
            .iter()
            .map(|&(kind, seed)| (kind, seed.to_string()))
            .collect();
        crate::stress::list_failing(f, &failing, "seed")
    }
}

impl AnyFailure {
    /// What the user reads of the failure: where it came from, how far it
    /// shrank, the input, both outputs and the difference.
    pub fn report(&self, options: &AnyOptions) -> String {
        let shrunk = &self.shrunk;
        let how = match shrunk.stop {
            Some(stop) => stop.to_string(),
            None => "not shrunk: the failure depends on the input's exact whitespace".to_string(),
        };
        let detail = match &self.verdict {
            Judgement::Ok => {
                "the solution passed the shrunk input when run again: it is not deterministic\n"
                    .to_string()
            }
            Judgement::WrongAnswer { diff } => format!("first difference: {diff}\n"),
            Judgement::RuntimeError { status, stderr } => {
                format!(
                    "{status}; stderr ends with:\n{}",
                    crate::text::indent(stderr)
                )
            }
            Judgement::TimeLimit => format!(
                "still running after {} ms: killed\n",
                options.limits.time.as_millis()
            ),
            Judgement::OutputLimit => {
                format!("wrote more than {} bytes: killed\n", options.limits.output)
            }
            Judgement::MemoryLimit => {
                crate::stress::memory_limit_detail(&self.program, options.limits.memory)
            }
        };
        let origin = if self.replayable {
            "makes the original"
        } else {
            "made the original, and another input when run again: see the warning"
        };
        let coupled = match shrunk.coupled_edits {
            0 => String::new(),
            n => format!(", {n} with labels renumbered"),
        };
        format!(
            "{kind} on seed {seed} (`{generator}` {origin})\n\
             shrunk from {before}\n\
             \x20         to {after}: {how}\n\
             ({attempts} candidates run, {kept} kept, {invalid} invalid, {counts} with a count lowered{coupled}; {secs:.1} s)\n\
             input:\n{input}\
             expected (brute force):\n{expected}\
             solution printed:\n{printed}\
             {detail}",
            kind = self.failed.code(),
            seed = self.seed,
            generator = options.generator_for(self.seed),
            before = shrunk.before,
            after = shrunk.after,
            attempts = shrunk.attempts,
            kept = shrunk.steps,
            invalid = shrunk.invalid,
            counts = shrunk.count_edits,
            secs = self.shrink_time.as_secs_f64(),
            input = crate::text::indent(&shrunk.text),
            expected = shown(&self.expected),
            printed = shown(&self.program.stdout),
        )
    }
}
