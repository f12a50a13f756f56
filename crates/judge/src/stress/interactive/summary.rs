//! What an interactive stress prints: the summary (cases, lines relayed per
//! case), the failing seeds, and each shrunk failure with its transcript,
//! shortened (the whole one is saved with the test).

use super::{InteractiveFailure, InteractiveOptions, InteractiveOutcome, Verdict};

/// Entries of a transcript a report shows from its start, and from its end.
pub const SHOWN_FIRST: usize = 12;
pub const SHOWN_LAST: usize = 12;

impl std::fmt::Display for InteractiveOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.counts;
        writeln!(f, "{}", c.line("stress", self.elapsed))?;
        if c.cases > 0 {
            writeln!(
                f,
                "interaction: {:.1} lines per case, both ways",
                self.lines as f64 / c.cases as f64
            )?;
        }
        crate::list_failing(f, &self.end.failing)?;
        crate::list_flaky(f, &self.end.flaky)
    }
}

impl InteractiveFailure {
    /// What the user reads of the failure: where it came from, how far it
    /// shrank, the shrunk test, the verdict and the transcript.
    pub fn report(&self, options: &InteractiveOptions) -> String {
        let shrunk = &self.shrunk;
        let detail = match &self.verdict {
            Verdict::Ok => {
                "the solution passed the shrunk test when run again: it is not deterministic (or the interactor is not)\n".to_string()
            }
            Verdict::WrongAnswer(said) | Verdict::PresentationError(said) => format!("{said}\n"),
            Verdict::RuntimeError { status, stderr } => format!(
                "the solution ended with {status}; its stderr ends with:\n{}",
                lockstep_text::indent(stderr)
            ),
            Verdict::TimeLimit(Some(deadlock)) => format!("{deadlock}\n"),
            Verdict::TimeLimit(None) => format!(
                "the solution spent more than {} ms of CPU time: killed\n",
                options.run.resources.time.as_millis()
            ),
            Verdict::IdleLimit => format!(
                "the solution was still running after {} ms of wall time, not waiting for the interactor, without spending its CPU time: killed\n",
                options.run.resources.wall.as_millis()
            ),
            Verdict::OutputLimit => format!(
                "the solution wrote more than {} bytes: killed\n",
                options.run.resources.output
            ),
            // The relay measures no memory (the command line refuses a
            // memory limit with an interactor).
            Verdict::MemoryLimit => "the solution used more memory than its limit\n".to_string(),
        };
        let transcript = match &self.interaction {
            Some(x) => format!(
                "transcript ({} lines; sol: the solution, int: the interactor, ---: lockstep):\n{}",
                x.transcript.lines,
                x.transcript.shortened(SHOWN_FIRST, SHOWN_LAST)
            ),
            None => "(the shrunk test could not be run again)\n".to_string(),
        };
        format!(
            "{header}test:\n{test}{detail}{transcript}",
            header = crate::stress::shrunk_header(
                (self.failed.code(), self.seed),
                &format!(
                    "`{}` makes the original; its interaction had {} lines",
                    options.run.generator_for(self.seed),
                    self.original_lines
                ),
                "test",
                shrunk,
                "",
                self.shrink_time,
            ),
            test = lockstep_text::indent(&shrunk.text),
        )
    }
}
