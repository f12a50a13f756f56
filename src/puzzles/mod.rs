//! The puzzle adapters, one module per puzzle (named as in `lockstep-core` and
//! `lockstep-reference`), and [`for_each_puzzle!`](crate::for_each_puzzle), the
//! one list of puzzles that everything else is generated from: these modules,
//! the registry the CLI picks from ([`crate::registry`], a floor above, so
//! that the adapters need nothing of the drivers it dispatches to), and the
//! tests' loops over every puzzle.

/// The one list of puzzles: each entry is the adapter type, the module name
/// (in every crate, the fuzz target and the corpus file) and, in brackets,
/// `bench` when `src/bench/<module>.rs` adds bench lines of its own.
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
            Robots robots [],
            NewGame2 new_game2 [],
            Footholds footholds [bench],
            Checkers checkers [bench],
            CheckersPerft checkers_perft [],
            Duel duel [bench],
            DuelSearch duel_search [bench],
            MatrixGame matrix_game [bench],
        }
    };
    (@apply [call $f:ident $args:tt] $($ty:ident $m:ident [$($flag:ident)?],)*) => {
        [$($f::<$crate::puzzles::$ty> $args),*]
    };
    (@apply [callback $callback:ident] $($entry:tt)*) => {
        $callback! { $($entry)* }
    };
    ($callback:ident) => {
        $crate::for_each_puzzle! { @list callback $callback }
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

macro_rules! adapters {
    ($($ty:ident $m:ident [$($flag:ident)?],)*) => {
        $(pub mod $m; pub use $m::$ty;)*
    };
}
crate::for_each_puzzle!(adapters);
