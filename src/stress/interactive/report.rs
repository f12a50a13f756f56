//! What an interactive stress prints: the summary (cases, lines relayed per
//! case), the failing seeds, and each shrunk failure with its transcript,
//! shortened (the whole one is saved with the test).

use super::{InteractionVerdict, InteractiveFailure, InteractiveOptions, InteractiveReport};

/// Entries of a transcript a report shows from its start, and from its end.
pub const SHOWN_FIRST: usize = 12;
pub const SHOWN_LAST: usize = 12;

impl std::fmt::Display for InteractiveReport {
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
        let failing: Vec<(&'static str, String)> = self
            .failing
            .iter()
            .map(|&(kind, seed)| (kind, seed.to_string()))
            .collect();
        crate::stress::list_failing(f, &failing, "seed")
    }
}

impl InteractiveFailure {
    /// What the user reads of the failure: where it came from, how far it
    /// shrank, the shrunk test, the verdict and the transcript.
    pub fn report(&self, options: &InteractiveOptions) -> String {
        let shrunk = &self.shrunk;
        let how = match shrunk.stop {
            Some(stop) => stop.to_string(),
            None => "not shrunk: the failure depends on the test's exact whitespace".to_string(),
        };
        let detail = match &self.verdict {
            InteractionVerdict::Ok => {
                "the solution passed the shrunk test when run again: it is not deterministic (or the interactor is not)\n".to_string()
            }
            InteractionVerdict::WrongAnswer(said) | InteractionVerdict::Presentation(said) => format!("{said}\n"),
            InteractionVerdict::Runtime { status, stderr } => format!(
                "the solution ended with {status}; its stderr ends with:\n{}",
                crate::text::indent(stderr)
            ),
            InteractionVerdict::TimeLimit(Some(deadlock)) => format!("{deadlock}\n"),
            InteractionVerdict::TimeLimit(None) => format!(
                "the solution was still running after {} ms: killed\n",
                options.limits.time.as_millis()
            ),
            InteractionVerdict::OutputLimit => format!(
                "the solution wrote more than {} bytes: killed\n",
                options.limits.output
            ),
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
            "{kind} on seed {seed} (`{generator}` makes the original; its interaction had {lines} lines)\n\
             shrunk from {before}\n\
             \x20         to {after}: {how}\n\
             ({attempts} candidates run, {kept} kept, {invalid} invalid; {secs:.1} s)\n\
             test:\n{test}\
             {detail}\
             {transcript}",
            kind = self.failed.code(),
            seed = self.seed,
            generator = options.generator_for(self.seed),
            lines = self.original_lines,
            before = shrunk.before,
            after = shrunk.after,
            attempts = shrunk.attempts,
            kept = shrunk.steps,
            invalid = shrunk.invalid,
            secs = self.shrink_time.as_secs_f64(),
            test = crate::text::indent(&shrunk.text),
        )
    }
}
