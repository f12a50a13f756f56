//! The answer to a `duel step` line: the next state and how the game
//! stands (ongoing, or who won and why), with the words an answer writes.

use super::*;

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    P1,
    P2,
    Draw,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    Hp,
    Out,
    Blessing,
    Illegal,
    Turns,
}

/// The result after a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Ongoing,
    Ended(Winner, Reason),
}

impl Winner {
    /// Its word in an answer.
    pub const fn word(self) -> &'static str {
        match self {
            Winner::P1 => "p1",
            Winner::P2 => "p2",
            Winner::Draw => "draw",
        }
    }
}

impl Reason {
    /// Its word in an answer.
    pub const fn word(self) -> &'static str {
        match self {
            Reason::Hp => "hp",
            Reason::Out => "out",
            Reason::Blessing => "blessing",
            Reason::Illegal => "illegal",
            Reason::Turns => "turns",
        }
    }
}

impl Outcome {
    /// Its words in an answer: `ongoing`, or the winner's and the
    /// reason's (`p1 hp`). The one form of `Display` and the answer
    /// printer ([`Action::write_to`] says why).
    pub fn write_to<W: fmt::Write>(self, out: &mut W) -> fmt::Result {
        match self {
            Outcome::Ongoing => out.write_str("ongoing"),
            Outcome::Ended(w, r) => {
                out.write_str(w.word())?;
                out.write_char(' ')?;
                out.write_str(r.word())
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// The answer to one line: the state at the start of the next turn and the result.
#[derive(Debug, Clone, Copy, Eq)]
pub struct TurnResult {
    pub next: State,
    pub outcome: Outcome,
}

/// Field by field, as derived, but every field is compared whether or not
/// one before it differs: with no branch a field, the compiler compares
/// the bytes a few at a time. verify compares core's and reference's
/// result of every line, and the derived comparison (a branch a field, a
/// loop over the players) took as long as hashing the result. The fields
/// are taken apart in full, so a field added to a state is a compile
/// error here until it is compared.
impl PartialEq for TurnResult {
    fn eq(&self, other: &Self) -> bool {
        let same_player = |p: &Player, q: &Player| {
            let Player {
                pos,
                hp,
                blessing,
                waits,
            } = p;
            (*pos == q.pos) & (*hp == q.hp) & (*blessing == q.blessing) & (*waits == q.waits)
        };
        let State {
            turn,
            spring,
            players: [first, second],
        } = &self.next;
        (*turn == other.next.turn)
            & (*spring == other.next.spring)
            & same_player(first, &other.next.players[0])
            & same_player(second, &other.next.players[1])
            & (self.outcome == other.outcome)
    }
}

/// As derived (each field in order): written out only because the
/// comparison above is.
impl std::hash::Hash for TurnResult {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.next.hash(state);
        self.outcome.hash(state);
    }
}
