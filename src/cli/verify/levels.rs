//! `lockstep verify --levels`: what each level of the puzzles holds and
//! how many cases, by the levels' own count, checking nothing; a table, or
//! one JSON document.

use super::*;

/// `--levels`: what each level holds and how many cases, checking nothing;
/// a table, or with `--format json` one document.
pub(super) fn print_levels(args: &VerifyArgs, entries: &[&'static dyn AnyPuzzle]) {
    let mut puzzles = Vec::new();
    for entry in entries {
        let (size, ci, night) = entry.sizes();
        let up_to = last_size(args, *entry);
        let counts = entry.level_counts(up_to);
        // A count stopped by a signal (checkers' deep layers take seconds)
        // is not a count: this puzzle and those after it are left out.
        if lockstep_stop::interrupted() {
            errln!(
                "stopped by a signal while counting the levels of {}: it and the puzzles after it are not listed",
                entry.name()
            );
            break;
        }
        puzzles.push(LevelsOf {
            puzzle: entry.name(),
            size,
            ci,
            night,
            levels: (1..)
                .zip(counts)
                .map(|(size, cases)| LevelCount { size, cases })
                .collect(),
        });
    }
    if args.output.format == OutputFormat::Json {
        print_document("verify-levels", &LevelsOutcome { puzzles });
        return;
    }
    for p in &puzzles {
        outln!(
            "{}: size = {} (--scope ci: {}, night: {})",
            p.puzzle,
            p.size,
            p.ci,
            p.night
        );
        for l in &p.levels {
            outln!("{:>6} {:>14}", l.size, l.cases);
        }
    }
}

/// `lockstep verify --levels`' outcome: each puzzle's levels and counts.
#[derive(Serialize)]
struct LevelsOutcome {
    puzzles: Vec<LevelsOf>,
}

#[derive(Serialize)]
struct LevelsOf {
    puzzle: &'static str,
    /// What a size holds.
    size: &'static str,
    /// The last size of `--scope ci` and of `--scope night`.
    ci: u32,
    night: u32,
    levels: Vec<LevelCount>,
}

#[derive(Serialize)]
struct LevelCount {
    size: u32,
    cases: u64,
}
