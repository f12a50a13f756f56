//! The referee protocol's lines as types: [`Init`] and [`TurnLine`], each
//! written with `Display` and read with `FromStr`, so that the referee (which
//! writes them) and the bots (which read them) share one definition of the
//! fields and their order instead of eleven positional arguments on one side
//! and indices on the other.
//!
//! Reading is strict about the shape (the keyword, the number of fields, whole
//! numbers) and leaves the meaning to the caller: a bot still decides what to
//! do with a cell off the yard or two players on one cell (it ignores such a
//! line), because a bot must answer whatever it is sent.

use lockstep_core::duel::{parse_actions, write_actions, Actions, Cell};
use std::fmt;
use std::str::FromStr;

/// `INIT OR OC R1 C1 R2 C2`: the spring, player 1's start, player 2's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Init {
    pub spring: Cell,
    pub p1: Cell,
    pub p2: Cell,
}

/// One player's figures on a TURN line: cell, hp and blessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    pub pos: Cell,
    pub hp: i8,
    pub blessing: u8,
}

/// `TURN time turn r1 c1 hp1 b1 r2 c2 hp2 b2 A B`: the receiving bot's time
/// left in ms, the turn, both players' figures (player 1 first, for both
/// bots), and the two actions the receiving bot's opponent played last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnLine {
    pub time_ms: u64,
    pub turn: u8,
    pub players: [Figures; 2],
    pub previous: Actions,
}

/// Why a protocol line did not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

fn number<T: FromStr>(token: &str, what: &str) -> Result<T, ProtocolError> {
    token
        .parse()
        .map_err(|_| ProtocolError(format!("{what}: expected a number, found {token:?}")))
}

/// The tokens after `keyword`, which must be the line's first.
fn fields<'a>(line: &'a str, keyword: &str) -> Result<Vec<&'a str>, ProtocolError> {
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        Some(k) if k == keyword => Ok(tokens.collect()),
        other => Err(ProtocolError(format!(
            "expected {keyword}, found {:?}",
            other.unwrap_or("")
        ))),
    }
}

impl Init {
    /// The six numbers after `INIT`, as `lockstep duel referee --init` takes them.
    pub fn numbers(&self) -> String {
        let (s, a, b) = (self.spring, self.p1, self.p2);
        format!("{} {} {} {} {} {}", s.0, s.1, a.0, a.1, b.0, b.1)
    }
}

impl fmt::Display for Init {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "INIT {}", self.numbers())
    }
}

impl FromStr for Init {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Init, ProtocolError> {
        let f = fields(line, "INIT")?;
        if f.len() != 6 {
            return Err(ProtocolError(format!(
                "INIT: expected 6 numbers, found {}",
                f.len()
            )));
        }
        let cell = |i: usize| -> Result<Cell, ProtocolError> {
            Ok((number(f[i], "INIT")?, number(f[i + 1], "INIT")?))
        };
        Ok(Init {
            spring: cell(0)?,
            p1: cell(2)?,
            p2: cell(4)?,
        })
    }
}

impl fmt::Display for TurnLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TURN {} {}", self.time_ms, self.turn)?;
        for p in &self.players {
            write!(f, " {} {} {} {}", p.pos.0, p.pos.1, p.hp, p.blessing)?;
        }
        write!(f, " {}", write_actions(&self.previous))
    }
}

impl FromStr for TurnLine {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<TurnLine, ProtocolError> {
        let f = fields(line, "TURN")?;
        if f.len() < 11 {
            return Err(ProtocolError(format!(
                "TURN: expected 10 numbers and two actions, found {} fields",
                f.len()
            )));
        }
        let figures = |base: usize| -> Result<Figures, ProtocolError> {
            Ok(Figures {
                pos: (number(f[base], "TURN")?, number(f[base + 1], "TURN")?),
                hp: number(f[base + 2], "TURN")?,
                blessing: number(f[base + 3], "TURN")?,
            })
        };
        let previous = parse_actions(&f[10..].join(" "))
            .map_err(|e| ProtocolError(format!("TURN: the previous actions: {e}")))?;
        Ok(TurnLine {
            time_ms: number(f[0], "TURN")?,
            turn: number(f[1], "TURN")?,
            players: [figures(2)?, figures(6)?],
            previous,
        })
    }
}

#[cfg(test)]
mod tests;
