//! The puzzles, one folder each (named as in `lockstep-core` and
//! `lockstep-reference`), and [`for_each_puzzle!`](crate::for_each_puzzle),
//! the one list of puzzles that everything else is generated from: the
//! registry the CLI picks from (`lockstep-registry`, a crate above, so that
//! the adapters need nothing of the drivers it dispatches to), the corpus's
//! line breaks, and the tests' loops over every puzzle.

/// The one list of puzzles: each entry is the adapter type, the module name
/// (in every crate, the fuzz target and the corpus file), the name on the
/// command line and in reports, and, in brackets,
/// what sets the puzzle apart ([`puzzle_flag!`](crate::puzzle_flag) reads
/// them):
///
/// - `bench`: the puzzle's `bench.rs` has bench lines of its own (its
///   `EXTRAS`);
/// - `referee`: a program for it is a bot, played through the referee
///   (`lockstep duel stress`), which `lockstep stress` refuses;
/// - `semicolons`: its judge lines hold `|`, so its corpus writes a line
///   break as `;` (the duel's step format).
/// - `trace`, `join`, `sideways`, `counting`, `verifiable`: the puzzle
///   implements that driver's trait ([`Traceable`](crate::puzzle::Traceable),
///   [`Joinable`](crate::puzzle::Joinable),
///   [`Sideways`](crate::shrink::Sideways),
///   [`Counting`](crate::puzzle::Counting),
///   [`Verifiable`](crate::puzzle::Verifiable)) itself; without the flag the
///   list implements it with the trait's defaults.
///
/// `for_each_puzzle!(my_macro)` calls `my_macro! { Type module [flags], ... }`
/// with the whole list, for code that makes items (modules, tables);
/// [`each_puzzle!`](crate::each_puzzle) is the short form for calling one
/// generic function for every puzzle. A new puzzle is one line here (see
/// docs/guide/src/tasks/add-puzzle.md), as regex's test `load!` lists its
/// suites once.
#[macro_export]
macro_rules! for_each_puzzle {
    (@list $($how:tt)*) => {
        $crate::for_each_puzzle! { @apply [$($how)*]
            Robots robots "robots" [trace join counting verifiable],
            NewGame2 new_game2 "new-game2" [trace sideways],
            Footholds footholds "footholds" [bench trace join],
            Checkers checkers "checkers" [bench trace join counting verifiable],
            CheckersPerft checkers_perft "checkers-perft" [],
            Duel duel "duel" [bench referee semicolons trace counting verifiable],
            DuelSearch duel_search "duel-search" [bench],
            MatrixGame matrix_game "matrix-game" [bench counting],
        }
    };
    (@apply [call $f:ident $args:tt] $($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
        [$($f::<$crate::puzzles::$ty> $args),*]
    };
    (@apply [callback $callback:ident] $($entry:tt)*) => {
        $callback! { $($entry)* }
    };
    ($callback:ident) => {
        $crate::for_each_puzzle! { @list callback $callback }
    };
}

/// `puzzle_flag!(flag; flags...)` is `true` when `flag` is one of a list
/// entry's `flags` (see [`for_each_puzzle!`](crate::for_each_puzzle)).
#[macro_export]
macro_rules! puzzle_flag {
    ($want:ident;) => {
        false
    };
    (bench; bench $($rest:ident)*) => {
        true
    };
    (referee; referee $($rest:ident)*) => {
        true
    };
    (semicolons; semicolons $($rest:ident)*) => {
        true
    };
    (trace; trace $($rest:ident)*) => {
        true
    };
    ($want:ident; $other:ident $($rest:ident)*) => {
        $crate::puzzle_flag!($want; $($rest)*)
    };
}

/// `each_puzzle!(f(args))` is `[f::<Robots>(args), f::<NewGame2>(args), ...]`
/// over the list of [`for_each_puzzle!`](crate::for_each_puzzle), in its order.
#[macro_export]
macro_rules! each_puzzle {
    ($f:ident $args:tt) => {
        $crate::for_each_puzzle!(@list call $f $args)
    };
}

/// `unless_flagged!(flag [flags] item)` is `item` unless `flag` is one of
/// `flags`: a driver trait's defaults, for a puzzle that does not
/// implement the trait itself.
macro_rules! unless_flagged {
    ($want:ident [] $item:item) => {
        $item
    };
    (trace [trace $($rest:ident)*] $item:item) => {};
    (join [join $($rest:ident)*] $item:item) => {};
    (sideways [sideways $($rest:ident)*] $item:item) => {};
    (counting [counting $($rest:ident)*] $item:item) => {};
    (verifiable [verifiable $($rest:ident)*] $item:item) => {};
    ($want:ident [$other:ident $($rest:ident)*] $item:item) => {
        unless_flagged!($want [$($rest)*] $item);
    };
}

/// Each puzzle's names, from its entry in the list, and the defaults of
/// every driver trait its flags do not name.
macro_rules! listed {
    ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
        $(impl crate::puzzle::Listed for $ty {
            const NAME: &'static str = $name;
            const MODULE: &'static str = stringify!($m);
        }
        unless_flagged!(trace [$($flag)*] impl crate::puzzle::Traceable for $ty {});
        unless_flagged!(join [$($flag)*] impl crate::puzzle::Joinable for $ty {});
        unless_flagged!(sideways [$($flag)*] impl crate::shrink::Sideways for $ty {});
        unless_flagged!(counting [$($flag)*] impl crate::puzzle::Counting for $ty {});
        unless_flagged!(verifiable [$($flag)*] impl crate::puzzle::Verifiable for $ty {});
        )*
    };
}
crate::for_each_puzzle!(listed);

// The puzzle folders, declared one by one where rustfmt sees them (a module
// declared inside a macro is never formatted); the list above names their
// adapter types, so a folder missing from here fails to compile, and
// tests/cli/layout.rs holds every folder here to the list.
pub mod checkers;
pub mod checkers_perft;
pub mod duel;
pub mod duel_search;
pub mod footholds;
pub mod matrix_game;
pub mod new_game2;
pub mod robots;

pub use checkers::Checkers;
pub use checkers_perft::CheckersPerft;
pub use duel::Duel;
pub use duel_search::DuelSearch;
pub use footholds::Footholds;
pub use matrix_game::MatrixGame;
pub use new_game2::NewGame2;
pub use robots::Robots;
