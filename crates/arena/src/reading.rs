//! Reading a predictable opponent: the default bot's counterpart of the
//! exploiter.
//!
//! A mixed strategy makes the bot hard to read, but against an opponent that
//! is itself predictable an equilibrium leaves points on the table: it guards
//! against every reply, while a fixed plan plays only one. The bot therefore
//! keeps models of the deterministic built-ins (the `spring`, `chase`,
//! `greedy` and `search` brains themselves) and, each turn, what each model
//! predicts the opponent will play. When one model has predicted every one of
//! the opponent's last [`READ_AFTER`] lists (for `greedy`, whose policy is a
//! set of tied lists, the list was one of them, and the set was narrow:
//! [`NARROW`]), the opponent is read: the bot
//! plays the safe best reply to the model's next policy
//! ([`Searcher::safe_reply`]), and a single miss sends it back to the
//! equilibrium.
//!
//! Why this does not make the bot readable in turn: a reading needs
//! [`READ_AFTER`] turns of exact agreement with a plan, and the reply it then
//! plays never loses at once to any list (when some list can avoid that), so
//! an opponent that imitates a plan to bait a reply gains one turn's position
//! at most, and has played that plan's moves meanwhile. The exploiter's model
//! of the mixed bot is told the game so far
//! ([`Brain::observe`](super::bots::Brain::observe)), so it
//! models the reading too.
//!
//! Time: the models get half of the turn's time (`search` is the only one
//! that needs it; its exhaustive maximin usually ends in a millisecond, and a
//! model cut short simply fails to predict), and a reading skips the
//! equilibrium, so the turn stays within the bot's cap. Measured against each
//! model and against the exploiter in `docs/notes/2026-12-02-duel-mixed.md`.

#[cfg(doc)]
use lockstep_core::duel::search::Searcher;
use lockstep_core::duel::{Actions, State};
use std::time::Instant;

/// A distribution over action lists: (list, weight), the weights summing to 1.
pub type Policy = Vec<(Actions, f64)>;

/// What the reader asks of a model of the opponent: its policy for one
/// side in a state, by a deadline. The bots' brains are such models
/// ([`Brain`](super::bots::Brain)).
pub trait Predictor {
    fn policy(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Policy;
}

/// A model reads the opponent after this many of its lists in a row were
/// predicted.
pub const READ_AFTER: u32 = 2;

/// A prediction of more lists than this says too little to read by: `greedy`
/// far from everything ties every list that ends on the same cell, and any
/// opponent walking to the spring would match it. Such a prediction neither
/// extends a streak nor is replied to.
pub const NARROW: usize = 8;

/// The bot's models of the opponent and how well each has predicted it.
pub struct Reader<M> {
    /// Each model with the name of the plan it stands for.
    models: Vec<(&'static str, M)>,
    /// Each model's policy for the opponent in the state last asked about.
    predictions: Vec<Policy>,
    /// Lists in a row each model predicted.
    streaks: Vec<u32>,
}

impl<M: Predictor> Reader<M> {
    /// A reader of the plans `models` stand for, each named.
    pub fn new(models: Vec<(&'static str, M)>) -> Reader<M> {
        let n = models.len();
        Reader {
            models,
            predictions: vec![Vec::new(); n],
            streaks: vec![0; n],
        }
    }
    /// Scores the last predictions against the list the opponent played: a
    /// miss ends a model's streak, a hit of a narrow prediction extends it,
    /// and a hit of a wide one leaves it as it was (see [`NARROW`]).
    pub fn observe(&mut self, theirs: &Actions) {
        for (streak, predicted) in self.streaks.iter_mut().zip(&self.predictions) {
            let hit = predicted.iter().any(|(list, w)| *w > 0.0 && list == theirs);
            if !hit {
                *streak = 0;
            } else if predicted.len() <= NARROW {
                *streak += 1;
            }
        }
    }

    /// Predicts the opponent of `me` in `state` (each model stopping at
    /// `deadline`), and returns the policy of the
    /// model that reads it, if one does: a streak of [`READ_AFTER`] and a
    /// narrow prediction now (the longest such streak; ties to the earlier
    /// model).
    pub fn predict(
        &mut self,
        state: &State,
        me: usize,
        deadline: Option<Instant>,
    ) -> Option<&Policy> {
        for ((_, model), prediction) in self.models.iter_mut().zip(&mut self.predictions) {
            *prediction = model.policy(state, 1 - me, deadline);
        }
        let predictions = &self.predictions;
        let (best, _) = (self.streaks.iter().enumerate().rev())
            .filter(|&(m, &s)| s >= READ_AFTER && predictions[m].len() <= NARROW)
            .max_by_key(|&(_, s)| *s)?;
        Some(&self.predictions[best])
    }

    /// The name of the plan that reads the opponent now, for tests and logs.
    pub fn reading(&self) -> Option<&'static str> {
        let (best, &streak) = self
            .streaks
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|&(_, s)| *s)?;
        (streak >= READ_AFTER).then(|| self.models[best].0)
    }
}

#[cfg(test)]
mod tests;
