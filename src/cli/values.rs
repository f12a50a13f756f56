//! The value parsers of the command line: each rejects a meaningless value
//! (a zero count, a negative time, an unknown puzzle) before anything runs,
//! with a message that says what was expected.

/// The puzzles, from the registry: each command's help lists them, and either
/// spelling is accepted (`new-game2`, `new_game2`).
pub(crate) fn puzzle_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        lockstep_registry::all()
            .iter()
            .map(|e| clap::builder::PossibleValue::new(e.name()).alias(e.module())),
    )
}

/// The most threads or jobs any command takes: far above any machine's cores,
/// low enough that a typo (`--jobs 100000`) is an error, not a crash.
pub(crate) const MAX_THREADS: usize = 1024;

/// `text` as a whole number of type `T`; one too large for it says so and
/// gives the largest, rather than calling it no number.
pub(crate) fn whole_number<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = std::num::ParseIntError> + std::fmt::Display + Bounded,
{
    text.parse::<T>().map_err(|e| match e.kind() {
        _ if text.trim_start().starts_with('-') => {
            format!("must not be negative, found {text}")
        }
        std::num::IntErrorKind::PosOverflow => {
            format!("{text} is too large (at most {})", T::MAX_VALUE)
        }
        _ => format!("expected a whole number, found {text:?}"),
    })
}

/// The largest value of an integer type, for [`whole_number`]'s message.
pub(crate) trait Bounded {
    const MAX_VALUE: Self;
}

impl Bounded for u64 {
    const MAX_VALUE: u64 = u64::MAX;
}

impl Bounded for usize {
    const MAX_VALUE: usize = usize::MAX;
}

impl Bounded for u32 {
    const MAX_VALUE: u32 = u32::MAX;
}

/// A seed: any whole number from 0 to 2^64 - 1.
pub(crate) fn seed_number(text: &str) -> Result<u64, String> {
    whole_number(text)
}

pub(crate) fn thread_count(text: &str) -> Result<usize, String> {
    let n: usize = whole_number(text)?;
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be in 1..={MAX_THREADS}, found {n}"))
    }
}

pub(crate) fn at_least_one(text: &str) -> Result<u64, String> {
    match whole_number::<u64>(text)? {
        0 => Err("must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// The longest limit of one run of a program (CPU, wall, start-up): a
/// day. A run's limits are shown and enforced as given, and past a day a
/// limit is a typo; far past it, its multiples (the wall's default, ten
/// times the CPU time) would no longer be shown as given.
pub(crate) const MAX_LIMIT_MS: u64 = 86_400_000;

/// A limit of one run, in milliseconds: 1 to [`MAX_LIMIT_MS`].
pub(crate) fn limit_ms(text: &str) -> Result<u64, String> {
    match at_least_one(text)? {
        n if n > MAX_LIMIT_MS => Err(format!(
            "{n} ms is too large (at most {MAX_LIMIT_MS} ms, a day)"
        )),
        n => Ok(n),
    }
}

/// Cases a bench round holds in memory at most: each side is timed on the
/// same cases, so a round generates them all first.
pub(crate) const MAX_BENCH_CASES: u64 = 200_000;

/// `bench --cases`: at least 1, at most [`MAX_BENCH_CASES`].
pub(crate) fn bench_cases(text: &str) -> Result<u64, String> {
    match at_least_one(text)? {
        n if n > MAX_BENCH_CASES => Err(format!(
            "{n} is more than {MAX_BENCH_CASES}: a round holds its cases in memory (raise --rounds instead)"
        )),
        n => Ok(n),
    }
}

/// The machine's memory in MiB (`MemTotal` of /proc/meminfo), when it can
/// be read.
fn machine_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// `perft --hash-mb`: a whole number of MiB no larger than the machine's
/// memory (a table past it could only fail to allocate, and abort).
pub(crate) fn table_mib(text: &str) -> Result<usize, String> {
    let mib = whole_number::<usize>(text)?;
    let most = machine_mib().unwrap_or(1 << 20);
    match mib > most {
        true => Err(format!(
            "{mib} MiB is more than this machine's memory ({most} MiB)"
        )),
        false => Ok(mib),
    }
}

/// The longest time any command takes: a year. Longer is a typo (and past
/// what a `Duration` or a deadline on the clock can hold, it would be a panic).
pub(crate) const MAX_SECONDS: f64 = 365.0 * 86_400.0;

pub(crate) fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > MAX_SECONDS => Err(format!(
            "must be at most {MAX_SECONDS:.0} seconds (a year), found {text}"
        )),
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(s) => Err(format!("must be a positive number of seconds, found {s}")),
        Err(_) => Err(format!("expected a number of seconds, found {text:?}")),
    }
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
/// (`usize`, so that a size that cannot be held in memory is refused.)
pub(crate) fn byte_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.trim().to_ascii_uppercase() {
        t if t.ends_with('K') => (t[..t.len() - 1].to_string(), 1usize << 10),
        t if t.ends_with('M') => (t[..t.len() - 1].to_string(), 1 << 20),
        t if t.ends_with('G') => (t[..t.len() - 1].to_string(), 1 << 30),
        t => (t, 1),
    };
    match digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
    {
        Some(0) => Err("must be at least 1 byte".to_string()),
        Some(n) => Ok(n),
        None => Err(format!(
            "expected a size such as 16M, 512K or 1000000, found {text:?}"
        )),
    }
}

/// The smallest `--memory-limit`: no program starts in less (a C program's
/// resident set alone is about a mebibyte), so a smaller limit would make
/// every run MLE.
pub(crate) const LEAST_MEMORY_LIMIT: usize = 1 << 20;

/// `--memory-limit`: a [`byte_size`] of at least [`LEAST_MEMORY_LIMIT`].
pub(crate) fn memory_size(text: &str) -> Result<usize, String> {
    match byte_size(text)? {
        n if n < LEAST_MEMORY_LIMIT => Err(format!(
            "{text} is below 1M, less than any program needs to start: every run would be MLE"
        )),
        n => Ok(n),
    }
}

/// `NAME=COMMAND` for `duel ladder --cmd`.
pub(crate) fn named_command(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, cmd)) if !name.trim().is_empty() && !cmd.trim().is_empty() => {
            Ok((name.trim().to_string(), cmd.to_string()))
        }
        _ => Err(format!("expected NAME=COMMAND, found {text:?}")),
    }
}

pub(crate) fn non_empty_command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("the command is empty".to_string())
    } else {
        Ok(text.to_string())
    }
}

/// `--compare`: tokens, lines, exact, real:EPS or yesno.
pub(crate) fn comparison(text: &str) -> Result<lockstep_judge::compare::Comparison, String> {
    text.parse()
        .map_err(|e: lockstep_judge::JudgeError| e.to_string())
}

/// `--origin`: a corpus row's origin, as the corpus writes it.
pub(crate) fn origin_name(text: &str) -> Result<lockstep_harness::corpus::Origin, String> {
    use lockstep_harness::corpus::Origin;
    let all = [
        Origin::Sample,
        Origin::Fuzz,
        Origin::Quickcheck,
        Origin::Peer,
        Origin::Hand,
        Origin::Stress,
    ];
    all.into_iter()
        .find(|o| o.to_string() == text)
        .ok_or_else(|| {
            let names: Vec<String> = all.iter().map(ToString::to_string).collect();
            format!("expected one of {}, found {text:?}", names.join(", "))
        })
}
