//! How a game ended: the report, a player's failure by kind, and the outcome
//! when one or both players broke the protocol or the rules.

use super::*;

/// How the game ended, in words.
#[derive(Debug, Clone)]
pub struct GameReport {
    pub outcome: Outcome,
    pub reason: String,
    /// The last turn played (0 if the game ended before turn 1).
    pub turns: u8,
    pub final_state: State,
    pub time_used_ms: [u128; 2],
    /// The referee's own work per turn (everything but waiting for the bots), in
    /// microseconds: mean and max.
    pub overhead_us: (f64, f64),
    /// Why each player lost by breaking the protocol or the rules, if it did.
    pub failures: [Option<BotFault>; 2],
}

/// The kind of a player's failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    Timeout,
    Crash,
    /// Answered READY with something other than OK.
    Ready,
    /// A malformed answer, or one over the byte limit.
    Protocol,
    Illegal,
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FaultKind::Timeout => "a timeout",
            FaultKind::Crash => "a crash",
            FaultKind::Ready => "a wrong READY answer",
            FaultKind::Protocol => "a protocol error",
            FaultKind::Illegal => "an illegal action list",
        })
    }
}

/// Why a player lost by breaking the protocol or the rules: its kind, and the
/// referee's words for it (what the report and the log print).
#[derive(Debug, Clone)]
pub struct BotFault {
    pub kind: FaultKind,
    pub message: String,
}

impl BotFault {
    pub(crate) fn new(kind: FaultKind, message: impl Into<String>) -> BotFault {
        BotFault {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for BotFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub(super) fn loser_outcome(failed: [Option<BotFault>; 2]) -> Option<(Outcome, String)> {
    match failed {
        [None, None] => None,
        [Some(a), Some(b)] => Some((
            Outcome::Ended(Winner::Draw, Reason::Illegal),
            format!("both lose: player 1 {a}; player 2 {b}"),
        )),
        [Some(a), None] => Some((
            Outcome::Ended(Winner::P2, Reason::Illegal),
            format!("player 1 {a}"),
        )),
        [None, Some(b)] => Some((
            Outcome::Ended(Winner::P1, Reason::Illegal),
            format!("player 2 {b}"),
        )),
    }
}
