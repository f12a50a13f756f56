//! What every shrinker reports, the greedy one over a puzzle's cases
//! (lockstep-harness) and the format-free one over any text
//! (lockstep-judge): its budget, the case it got to, and why it stopped.
//! Here, beneath both, so that a [`crate::Plan`] carries one budget type.

/// The shrunk case, how many candidates were tried on the way, and why the
/// search stopped.
#[derive(Debug, Clone)]
pub struct Shrunk<C> {
    pub case: C,
    pub attempts: usize,
    pub steps: usize,
    pub stop: Stop,
}

/// Why shrinking stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every proposed simplification of the result passes: a local minimum.
    LocalMinimum,
    /// The attempt budget ran out first: the result may shrink further.
    Attempts,
    /// The time budget ran out first: the result may shrink further.
    Time,
    /// A signal came first: the result is the smallest failing case so far,
    /// kept (a finding is not lost because its shrinking was cut short).
    Interrupted,
    /// Not shrunk: the first failure of an enumeration, smallest first
    /// (`verify`, `stress --exhaustive`), has no smaller failing case.
    Smallest,
    /// Not shrunk further: the first part (a duel line, a checkers
    /// instance) that fails alone, of an enumeration's first failing case.
    Part,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::LocalMinimum => "a local minimum",
            Stop::Attempts => "cut off by the attempt budget (it may shrink further)",
            Stop::Time => {
                "cut off by the time budget, a backstop (it may shrink further, and where it stopped depends on the machine's speed: raise --shrink-seconds)"
            }
            Stop::Interrupted => "cut off by a signal (it may shrink further)",
            Stop::Smallest => "not shrunk: no case before it in the enumeration fails",
            Stop::Part => {
                "the first of its parts that fails alone, of the enumeration's first failing case"
            }
        })
    }
}

/// How much shrinking may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Candidates tried at most.
    pub attempts: usize,
    /// Wall time at most, if any.
    pub time: Option<std::time::Duration>,
}

/// Where a failing input is kept on disk the moment it is found, and again
/// each time its shrink makes it smaller, so that a stop at any moment (a
/// signal, a crash, a kill) leaves the smallest failing input so far
/// saved: a finding is written where it is found, then improved in place.
/// Called with the failure's kind (`WA`) and the input's text; the caller
/// (the command line) says where it goes, and a write that fails is said
/// by the final save, not here.
#[derive(Clone)]
pub struct Keep(std::sync::Arc<KeepFn>);

/// What a [`Keep`] calls: the kind, then the input.
type KeepFn = dyn Fn(&str, &str) + Send + Sync;

impl Keep {
    pub fn new(keep: impl Fn(&str, &str) + Send + Sync + 'static) -> Keep {
        Keep(std::sync::Arc::new(keep))
    }

    /// Keeps `input` as the smallest failing input of kind `kind` so far.
    pub fn keep(&self, kind: &str, input: &str) {
        (self.0)(kind, input);
    }
}

impl std::fmt::Debug for Keep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keep(..)")
    }
}
