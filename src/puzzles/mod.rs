//! The puzzle adapters, one module per puzzle (named as in `lockstep-core` and
//! `lockstep-reference`). The registry the CLI picks them from is
//! [`crate::registry`], a floor above, so that the adapters need nothing of the
//! drivers (bench, campaign, stress) that the registry dispatches to.

pub mod checkers;
pub mod duel;
pub mod duel_search;
pub mod footholds;
pub mod new_game2;
pub mod robots;

pub use checkers::Checkers;
pub use duel::Duel;
pub use duel_search::DuelSearch;
pub use footholds::Footholds;
pub use new_game2::NewGame2;
pub use robots::Robots;
