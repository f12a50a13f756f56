//! The per-phase event vocabulary both resolvers report in: what the digest
//! folds and what `explain` compares.

use super::*;

/// The phases of one slot, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    Dash,
    GuardThrust,
    MoveCharge,
    Strike,
    Comparison,
    PushDamage,
}

impl Phase {
    pub const ALL: [Phase; 6] = [
        Phase::Dash,
        Phase::GuardThrust,
        Phase::MoveCharge,
        Phase::Strike,
        Phase::Comparison,
        Phase::PushDamage,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Phase::Dash => "1 dash",
            Phase::GuardThrust => "2 guard and thrust",
            Phase::MoveCharge => "3 move and charge",
            Phase::Strike => "4 sweep, charge and break",
            Phase::Comparison => "5 comparison",
            Phase::PushDamage => "6 push and damage",
        }
    }

    pub const fn slug(self) -> &'static str {
        match self {
            Phase::Dash => "dash",
            Phase::GuardThrust => "guard-thrust",
            Phase::MoveCharge => "move-charge",
            Phase::Strike => "strike",
            Phase::Comparison => "comparison",
            Phase::PushDamage => "push-damage",
        }
    }
}

/// Per-player flags of an [`Event`].
pub const MOVED: u8 = 1;
/// The player's attack hit (thrust in phase 2; sweep, charge, break in phase 4).
pub const HIT: u8 = 2;
/// The player's attack reached the opponent but the opponent's guard blocked it.
pub const BLOCKED: u8 = 4;
/// The player's move was cancelled by a thrust (phase 2).
pub const CANCELLED: u8 = 8;
/// The player's attack takes effect after the comparison (phase 5).
pub const EFFECTIVE: u8 = 16;
/// The player is out of the yard (phase 6).
pub const OUT: u8 = 32;

/// What both players look like after one phase of one slot. Both resolvers emit
/// exactly one event per phase per performed slot, so their traces line up and
/// a divergence can be named by the first phase where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// 0 for the first actions, 1 for the second.
    pub slot: u8,
    pub phase: Phase,
    pub pos: [Cell; 2],
    pub hp: [i8; 2],
    pub flags: [u8; 2],
}

impl Event {
    /// The word both resolvers fold into their trace digest.
    #[inline]
    pub fn packed(&self) -> u64 {
        let b = |v: i8| u64::from(v as u8);
        u64::from(self.slot)
            | (self.phase as u64) << 1
            | b(self.pos[0].0) << 4
            | b(self.pos[0].1) << 8
            | b(self.pos[1].0) << 12
            | b(self.pos[1].1) << 16
            | b(self.hp[0]) << 20
            | b(self.hp[1]) << 28
            | u64::from(self.flags[0]) << 36
            | u64::from(self.flags[1]) << 44
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags = |v: u8| {
            let names = [
                (MOVED, "moved"),
                (HIT, "hit"),
                (BLOCKED, "blocked"),
                (CANCELLED, "cancelled"),
                (EFFECTIVE, "effective"),
                (OUT, "out"),
            ];
            let set: Vec<&str> = names
                .iter()
                .filter(|(bit, _)| v & bit != 0)
                .map(|(_, n)| *n)
                .collect();
            if set.is_empty() {
                "-".to_string()
            } else {
                set.join(",")
            }
        };
        write!(
            f,
            "slot {} phase {}: P1 ({},{}) hp {} [{}]; P2 ({},{}) hp {} [{}]",
            self.slot + 1,
            self.phase.name(),
            self.pos[0].0,
            self.pos[0].1,
            self.hp[0],
            flags(self.flags[0]),
            self.pos[1].0,
            self.pos[1].1,
            self.hp[1],
            flags(self.flags[1])
        )
    }
}
