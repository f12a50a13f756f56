//! `lockstep stress PUZZLE --cmd CMD`: a user's solution program against the
//! oracle on generated cases, its first failure shrunk; and `lockstep stress
//! any --gen G --brute B --cmd CMD`, the same for any problem with the user's
//! own generator and brute force. Each has its own flags, so each help page
//! shows only the flags that apply.

use super::common::{default_jobs, lookup, LengthFlags};
use super::findings::corpus_dir;
use super::judged::{JudgeFlags, ProgramFlags, ResourceFlags};
use super::output::{check_can_write, OutputFormat};
use super::values::{
    at_least_one, comparison, non_empty_command, positive_seconds, puzzle_names, seed_number,
    thread_count,
};
use super::Exit;

mod interactive;
mod summary;
use anyhow::{bail, Context, Result};
use lockstep_harness::puzzle::CaseLimits;
use lockstep_judge::compare::Comparison;
use lockstep_judge::stress::any::AnyOptions;
use lockstep_judge::stress::GeneratorOptions;
use lockstep_registry::stress::{Oracle, StressOptions};
use lockstep_search::seeds::fresh_seed;
use lockstep_search::Plan;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use summary::{stress_any_summary, stress_puzzle_summary};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(super) struct StressArgs {
    #[command(subcommand)]
    any: Option<StressCommand>,
    #[command(flatten)]
    puzzle: PuzzleStressArgs,
}

#[derive(clap::Subcommand, Debug)]
enum StressCommand {
    /// Any problem: your generator makes the inputs, your brute force gives
    /// the expected answers (or your checker judges), and the first failure
    /// is shrunk with no knowledge of the input's format.
    Any(AnyStressArgs),
}

/// What both kinds of stress take alike: how many programs at once, how long,
/// each run's limits, and the shrinking of each failure.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct StressFlags {
    /// Programs run at once; the default is this machine's cores.
    #[arg(long, default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// Run every case, counting every failure by kind, and shrink the first
    /// failure of each kind (WA, RE, TLE, ILE, MLE, OLE) instead of stopping at the first.
    #[arg(long)]
    keep_going: bool,
    /// Run only this case, as a report names it (`job 0 case 32` for a
    /// puzzle, `seed 5004` for any problem), under --seed: a failure
    /// replayed as it was printed.
    #[arg(long, value_name = "ADDRESS")]
    case: Option<lockstep_search::Address>,
    #[command(flatten)]
    length: LengthFlags,
    #[command(flatten)]
    resources: ResourceFlags,
    #[command(flatten)]
    shrink: ShrinkBudget,
}

/// How a failure is shrunk.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Shrinking")]
struct ShrinkBudget {
    /// Candidates the shrinker may run the program on, per failure: the
    /// shrink's budget, so that one seed shrinks to one case on any machine.
    #[arg(long, default_value_t = 3000, value_parser = at_least_one)]
    shrink_attempts: u64,
    /// Seconds the shrinker may take, per failure: a backstop for slow
    /// programs (the report says when it cut a shrink short, and the shrunk
    /// case then depends on the machine's speed).
    #[arg(long, default_value_t = 600.0, value_parser = positive_seconds)]
    shrink_seconds: f64,
}

impl StressFlags {
    /// The search these flags ask for, from `seed`.
    pub(super) fn plan(&self, seed: u64) -> Plan {
        Plan {
            seed,
            seconds: self.length.seconds(),
            max_cases: self.length.cases,
            jobs: self.jobs,
            progress: true,
            keep_going: self.keep_going,
            shrink: self.shrink.budget(),
            shard: lockstep_search::Shard::WHOLE,
            only: self.case,
            enumerate: None,
        }
    }
}

impl ShrinkBudget {
    fn budget(&self) -> lockstep_search::shrinking::Budget {
        lockstep_search::shrinking::Budget {
            attempts: self.shrink_attempts as usize,
            time: Some(Duration::from_secs_f64(self.shrink_seconds)),
        }
    }
}

#[derive(clap::Args, Debug)]
struct PuzzleStressArgs {
    /// The puzzle (a duel bot is stressed by `lockstep duel stress`).
    #[arg(value_parser = puzzle_names(), required = true)]
    puzzle: Option<String>,
    /// The program: judge input on its stdin, judge output expected on
    /// stdout. A source file (.c .cpp .java .py .rs, ...) is compiled once
    /// into the cache and run as a judge would (`lockstep languages`).
    #[arg(long, value_parser = non_empty_command, required = true)]
    cmd: Option<String>,
    /// How its output is compared with the oracle's: lines (trailing spaces
    /// and final newlines aside, as the puzzles' judges compare), tokens,
    /// exact, real:EPS (numbers within an absolute or relative error EPS),
    /// yesno (YES and NO in any case).
    #[arg(long, default_value = "lines", value_parser = comparison)]
    compare: Comparison,
    /// Which solver gives the expected answers.
    #[arg(long, value_enum, default_value_t = OracleArg::Core)]
    oracle: OracleArg,
    /// Which cases to generate: inside the original statements' limits (what
    /// a judge's tests hold), or the generator's whole range.
    #[arg(long, value_enum, default_value_t = CaseLimits::Original)]
    limits: CaseLimits,
    /// Seed for the generated cases (default: a fresh one, printed).
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
    /// Every case up to --size instead of generated ones, smallest first:
    /// the puzzle's levels as `lockstep verify` enumerates them, every case
    /// of each (no symmetry: your program need not be symmetric). The first
    /// failure is the smallest, so it is not shrunk. Robots', footholds'
    /// and checkers' cases run many to an input.
    #[arg(long, conflicts_with = "seed", help_heading = "Exhaustive")]
    exhaustive: bool,
    /// The largest size for --exhaustive [default: the puzzle's `verify
    /// --scope ci` size]; the rule pages say what a size is.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Exhaustive")]
    size: Option<u32>,
    /// Where --exhaustive starts: a size (`3`, its whole level) or a case
    /// (`'size 3 case 1234'`), as a stopped run names it. The stopped run
    /// and the resumed one check every case once between them.
    #[arg(long, value_parser = resume_point, requires = "exhaustive", help_heading = "Exhaustive")]
    from: Option<(u32, u64)>,
    #[command(flatten)]
    run: StressFlags,
    /// Where to save the minimal failing input [default:
    /// lockstep-stress-<module>.txt].
    #[arg(long, help_heading = "Findings")]
    save: Option<PathBuf>,
    /// Also append the failure's row to DIR/<puzzle>.csv (must exist). By
    /// default no corpus is touched: the row is printed and the input
    /// saved (--save), as oj, rbx and testlib keep a user's failing tests
    /// where the user says, never in the tool's own tests.
    #[arg(long, value_name = "DIR", help_heading = "Findings")]
    corpus: Option<PathBuf>,
    /// Do not append the failure to a corpus: the default now, kept so that
    /// older command lines still run (not with --corpus, which it would
    /// contradict).
    #[arg(long, help_heading = "Findings", conflicts_with = "corpus")]
    no_append: bool,
    /// Write every generated input (JOB-INDEX.in) and the oracle's answer
    /// (JOB-INDEX.ans) to this directory (created if missing).
    #[arg(long, help_heading = "Findings")]
    dump: Option<PathBuf>,
    /// The report on stdout: a table, or one JSON document (its schema:
    /// docs/guide/src/reference/json.md); failures' reports stay on stderr
    /// either way.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

#[derive(clap::Args, Debug)]
pub(super) struct AnyStressArgs {
    /// Your generator, run with a seed as its last argument (SEED, SEED+1,
    /// ... for cases 0, 1, ...), printing one input.
    #[arg(long, value_parser = non_empty_command)]
    gen: String,
    /// Your brute force, whose output is the expected answer (not with
    /// --interactor, whose exit code is the verdict).
    #[arg(long, value_parser = non_empty_command, required_unless_present = "interactor")]
    brute: Option<String>,
    /// An interactive problem's interactor, run as testlib runs one:
    /// `INTERACTOR TEST OUTPUT`, its stdin and stdout connected to the
    /// solution's through lockstep (which keeps the transcript), its exit
    /// code the verdict (0 OK, 1 WA, 2 PE, 3 its own failure). The
    /// generator's output is the test; --checker, if given, reads OUTPUT
    /// (`CHECKER TEST OUTPUT TEST`).
    #[arg(long, value_parser = non_empty_command, conflicts_with_all = ["brute", "compare"])]
    interactor: Option<String>,
    /// The program under test: an input on its stdin, its answer on stdout.
    /// Each of these programs may be a source file (.c .cpp .java .py .rs,
    /// ...), compiled once into the cache (`lockstep languages`).
    #[arg(long, value_parser = non_empty_command)]
    cmd: String,
    #[command(flatten)]
    judged_by: JudgeFlags,
    /// Reads an input on stdin, exit 0 when it is valid. Generated inputs
    /// must pass it; shrinking keeps only inputs that do.
    #[arg(long, value_parser = non_empty_command)]
    validator: Option<String>,
    /// Time limit per run of the tools (generator, validator, brute force,
    /// checker), in milliseconds (no language multiplier and no memory
    /// limit: those are the solution's; `--helper-timeout-ms`, its old name,
    /// still works).
    #[arg(long, alias = "helper-timeout-ms", default_value_t = 10_000, value_parser = at_least_one)]
    tool_timeout_ms: u64,
    /// Seed of the first case (default: a fresh one below 10^9, printed).
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
    #[command(flatten)]
    run: StressFlags,
    /// Where to save the minimal failing input (with --interactor, its
    /// whole transcript goes beside it, to SAVE.transcript).
    #[arg(long, default_value = "lockstep-stress.txt", help_heading = "Findings")]
    save: PathBuf,
    /// Write every generated input (SEED.in) and the brute force's answer
    /// (SEED.ans) to this directory (created if missing).
    #[arg(long, help_heading = "Findings")]
    dump: Option<PathBuf>,
    /// The report on stdout: a table, or one JSON document (its schema:
    /// docs/guide/src/reference/json.md); failures' reports stay on stderr
    /// either way.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum OracleArg {
    /// The fast core (checked against the reference by `lockstep fuzz`).
    Core,
    /// The naive reference (slower; cases it cannot finish are skipped).
    Reference,
}

/// `--from`'s value: a size (`3`: its level from its first case) or a
/// case's address (`size 3 case 1234`), as a stopped run prints it.
fn resume_point(text: &str) -> Result<(u32, u64), String> {
    if let Ok(size) = text.trim().parse::<u32>() {
        return match size {
            0 => Err("sizes start at 1".to_string()),
            size => Ok((size, 0)),
        };
    }
    match text.parse::<lockstep_search::Address>() {
        Ok(lockstep_search::Address::Sized { size: 0, .. }) => Err("sizes start at 1".to_string()),
        Ok(lockstep_search::Address::Sized { size, index }) => Ok((size, index)),
        _ => Err(format!(
            "{text:?}: expected a size (3) or a case of the levels (`size 3 case 1234`), as a stopped run prints it"
        )),
    }
}

/// The spelling before `stress any` existed, `lockstep stress --gen G --brute
/// B --cmd C`, still works: it is read as `stress any ...`, with a note.
pub(super) fn old_spelling(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.collect();
    let is_flag = |a: &OsString, flag: &str| {
        a.to_str()
            .is_some_and(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    if args.len() > 2
        && args[1] == "stress"
        && args[2] != "any"
        && args[2..].iter().any(|a| is_flag(a, "--gen"))
    {
        // `stress --interactor I --gen G --cmd C` is the interactive mode's
        // own spelling (issue 32's): read as `stress any` without a note.
        if !args[2..].iter().any(|a| is_flag(a, "--interactor")) {
            errln!("note: `lockstep stress --gen ...` is now spelt `lockstep stress any --gen ...`; read as that");
        }
        args.insert(2, OsString::from("any"));
    }
    args
}

pub(super) fn stress(args: StressArgs) -> Result<Exit> {
    match args.any {
        Some(StressCommand::Any(any)) => stress_any(any),
        None => stress_puzzle(args.puzzle),
    }
}

fn stress_puzzle(args: PuzzleStressArgs) -> Result<Exit> {
    let (Some(puzzle), Some(cmd)) = (args.puzzle, args.cmd) else {
        bail!("name a puzzle and give --cmd (or use `lockstep stress any` for any problem)");
    };
    let entry = lookup(&puzzle)?;
    let example = match args.exhaustive {
        true => lockstep_search::Address::Sized { size: 1, index: 0 },
        false => lockstep_search::Address::Stream { job: 0, index: 0 },
    };
    lockstep_search::Address::check_kind(args.run.case.as_ref(), example)
        .map_err(anyhow::Error::msg)?;
    // Generated cases have no size: --size alone would be ignored.
    if let (Some(size), false) = (args.size, args.exhaustive) {
        bail!("--size {size} is the largest size of --exhaustive: add --exhaustive to run every case up to it (generated cases have no size bound)");
    }
    if let Some(size) = args.size {
        entry
            .check_size("--exhaustive --size", size)
            .map_err(anyhow::Error::msg)?;
    }
    // A generated case is named within its seed's stream: without the seed
    // the address would replay some other run's case.
    if args.run.case.is_some() && !args.exhaustive && args.seed.is_none() {
        bail!("--case names a generated case within its run's seed: give the --seed the report printed");
    }
    // A bot is judged by the referee's rules and clock, not by an oracle: its
    // command has its own flags. Refused before anything starts or is created.
    if entry.played_through_referee() {
        bail!(
            "a {} bot is stressed with `lockstep duel stress --cmd CMD [--games N]` (the referee's rules and 1000 ms budget judge it)",
            entry.name()
        );
    }
    let limits = &args.run.resources;
    let program = ProgramFlags::new().runnable("--cmd", &cmd)?;
    // The program's start-up check, then the --dump directory.
    if let Err(message) = limits.check_start(&program) {
        bail!("{message}");
    }
    if let Some(dir) = &args.dump {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--dump {}: creating it", dir.display()))?;
    }
    let per_run = limits.per_run(&program);
    let mut plan = args.run.plan(args.seed.unwrap_or_else(fresh_seed));
    if args.exhaustive {
        let (_, ci, _) = entry.sizes();
        let up_to = args.size.unwrap_or(ci);
        let (from, start) = args.from.unwrap_or((1, 0));
        if from > up_to {
            bail!("--from size {from} is past --size {up_to}: nothing to run");
        }
        plan.seed = 0;
        plan.enumerate = Some(lockstep_search::Enumeration {
            from,
            up_to,
            symmetry: false,
            start,
        });
        // The levels' end ends the run, unless the flags say sooner.
        if args.run.length.seconds.is_none() {
            plan.seconds = f64::INFINITY;
        }
    }
    let options = StressOptions {
        plan,
        cmd: program.command.clone(),
        resources: per_run,
        comparison: args.compare,
        limits: args.limits,
        dump: args.dump,
        oracle: match args.oracle {
            OracleArg::Core => Oracle::Core,
            OracleArg::Reference => Oracle::Reference,
        },
        keep: None,
    };
    let save = args
        .save
        .unwrap_or_else(|| PathBuf::from(format!("lockstep-stress-{}.txt", entry.module())));
    check_can_write(&save, "--save")?;
    let options = StressOptions {
        keep: Some(summary::keep_in(&save, options.plan.keep_going)),
        ..options
    };
    // A user's failure lands in a corpus only when asked (--corpus DIR):
    // run in a clone of lockstep, ./corpus is the tool's own regression suite.
    let dir = match args.corpus {
        Some(given) => Some(corpus_dir(Some(given))?),
        None => None,
    };
    super::findings::check_corpus_first(&[entry], dir.as_deref())?;
    let banner = limits.banner(&program);
    stress_puzzle_summary(entry, &options, &banner, &save, dir.as_deref(), args.format)
}

/// The run over the user's generator that both flavours of `stress any`
/// take, its programs made runnable in the order of the flags (`more`: the
/// flavour's own tools, flag and value, made after the generator and
/// returned) and each checked to start, the --dump directory made; and the
/// banner's words on the solution's limits.
fn user_run(
    args: &AnyStressArgs,
    flags: &mut ProgramFlags,
    more: &[(&str, &str)],
) -> Result<(GeneratorOptions, Vec<String>, String)> {
    let solution = flags.runnable("--cmd", &args.cmd)?;
    let generator = flags.runnable("--gen", &args.gen)?.command;
    let mut made = Vec::new();
    for (flag, value) in more {
        made.push(flags.runnable(flag, value)?.command);
    }
    let run = GeneratorOptions {
        // Small enough that a C generator's atoi reads every seed.
        plan: args
            .run
            .plan(args.seed.unwrap_or_else(|| fresh_seed() % 1_000_000_000)),
        generator,
        solution: solution.command.clone(),
        checker: flags
            .optional("--checker", args.judged_by.checker.as_ref())?
            .map(|r| r.command),
        validator: flags
            .optional("--validator", args.validator.as_ref())?
            .map(|r| r.command),
        resources: args.run.resources.per_run(&solution),
        tool_time: Duration::from_millis(args.tool_timeout_ms),
        dump: args.dump.clone(),
        keep: Some(summary::keep_in(&args.save, args.run.keep_going)),
    };
    // Each program's start-up check (the solution's under its own limits,
    // the tools' without a memory limit), then the --dump directory.
    let limits = &args.run.resources;
    let tools = [
        ("--gen", Some(run.generator.as_str())),
        ("--validator", run.validator.as_deref()),
        ("--checker", run.checker.as_deref()),
    ];
    // An interactor needs a test to start: the first case checks it.
    let more = more
        .iter()
        .zip(&made)
        .filter(|((flag, _), _)| *flag != "--interactor")
        .map(|(&(flag, _), command)| (flag, Some(command.as_str())));
    let startup = |flag: &str| match flag {
        "--cmd" => limits.startup(&solution),
        _ => limits.tool_startup(),
    };
    for (what, command) in [("--cmd", Some(run.solution.as_str()))]
        .into_iter()
        .chain(tools)
        .chain(more)
    {
        if let Some(command) = command {
            let checked = match what {
                // The solution's, with a warning of a wall limit too short.
                "--cmd" => limits.check_start(&solution),
                _ => lockstep_judge::check_command(command, startup(what)),
            };
            if let Err(message) = checked {
                bail!("{what}: {message}");
            }
        }
    }
    if let Some(dir) = &args.dump {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--dump {}: creating it", dir.display()))?;
    }
    Ok((run, made, limits.banner(&solution)))
}

fn stress_any(args: AnyStressArgs) -> Result<Exit> {
    // Where the failing input goes is checked before any program runs.
    check_can_write(&args.save, "--save")?;
    if args.interactor.is_some() {
        return interactive::stress_interactive(args);
    }
    lockstep_search::Address::check_kind(args.run.case.as_ref(), lockstep_search::Address::Seed(0))
        .map_err(anyhow::Error::msg)?;
    let Some(brute) = &args.brute else {
        bail!("give --brute B (the expected answers) or --interactor I (an interactive problem)");
    };
    let mut flags = ProgramFlags::new();
    let (run, mut tools, banner) = user_run(&args, &mut flags, &[("--brute", brute)])?;
    let options = AnyOptions {
        run,
        brute: tools.remove(0),
        comparison: args.judged_by.compare,
    };
    stress_any_summary(&options, &banner, &args.save, args.format)
}
