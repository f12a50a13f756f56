//! What a stress of any problem prints: the summary with where the time
//! went per case, the failing seeds, and each shrunk failure's report.

use super::{AnyFailure, AnyOptions, AnyOutcome};

/// A program's output for a report; an empty one said as such.
fn shown(text: &str) -> String {
    if text.is_empty() {
        "    (nothing)\n".to_string()
    } else {
        lockstep_text::indent(text)
    }
}

impl std::fmt::Display for AnyOutcome {
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
        crate::list_failing(f, &self.end.failing)?;
        crate::list_flaky(f, &self.end.flaky)
    }
}

impl AnyFailure {
    /// What the user reads of the failure: where it came from, how far it
    /// shrank, the input, both outputs and the difference.
    pub fn report(&self, options: &AnyOptions) -> String {
        let shrunk = &self.shrunk;
        let detail = self.verdict.detail(
            &self.program,
            &options.run.resources,
            "the solution passed the shrunk input when run again: it is not deterministic",
        );
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
            "{header}input:\n{input}\
             expected (brute force):\n{expected}\
             solution printed:\n{printed}\
             {detail}",
            header = crate::stress::shrunk_header(
                (self.failed.code(), self.seed),
                &format!("`{}` {origin}", options.run.generator_for(self.seed)),
                "input",
                shrunk,
                &format!(", {} with a count lowered{coupled}", shrunk.count_edits),
                self.shrink_time,
            ),
            input = lockstep_text::indent(&shrunk.text),
            expected = shown(&self.expected),
            printed = shown(&self.program.stdout),
        )
    }
}
