//! The fast Disappearing Footholds solver: negamax with alpha-beta over a 64-bit
//! board, one score per position, a transposition table and move ordering.
//!
//! - **One score.** A position is valued from the side to move as `BIG - p` for a
//!   win that ends the game at ply `p` (counted from the root) and `-(BIG - p)` for
//!   a loss there. A quicker win and a slower loss are both larger numbers, so plain
//!   negamax with alpha-beta plays exactly "win fast, lose slow", and the root's
//!   value gives the total number of moves.
//! - **Transposition table.** A position is (footholds left, mover's cell, other's
//!   cell); its game tree does not depend on anything else (not even the board's
//!   width: the mask holds only real footholds). Values are stored relative to the
//!   position (`±(BIG - moves left)`), so an entry is true for every search that
//!   meets the position: the table is kept per thread across solves and never
//!   cleared. Entries carry the full key, so a collision is a miss, never a wrong
//!   answer.
//! - **Move ordering.** The table's best move first, then moves to cells with more
//!   footholds around them.
//! - **Mate-distance pruning.** A position at ply `p` is worth at most `BIG - p - 1`
//!   (win now) and at least `-(BIG - p)` (lose now): the window is narrowed to that.

use super::{Answer, Case, Game, Pos};
use std::cell::RefCell;
use std::time::Instant;

const BIG: i32 = 1000;

/// `NEIGHBOURS[i]`: the cells next to bit `i` on an 8x8 grid (no wrap-around).
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = (i / 8, i % 8);
        let mut m = 0u64;
        if r > 0 {
            m |= 1 << (i - 8);
        }
        if r < 7 {
            m |= 1 << (i + 8);
        }
        if c > 0 {
            m |= 1 << (i - 1);
        }
        if c < 7 {
            m |= 1 << (i + 1);
        }
        table[i] = m;
        i += 1;
    }
    table
};

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Clone, Copy, Default)]
struct Entry {
    board: u64,
    /// `mover | other << 6 | 1 << 12` (bit 12 marks a used entry).
    players: u16,
    value: i16,
    flag: u8,
    best: u8,
}

const TABLE_BITS: u32 = 20;

struct Table {
    entries: Vec<Entry>,
}

impl Table {
    fn new() -> Table {
        Table {
            entries: vec![Entry::default(); 1 << TABLE_BITS],
        }
    }

    #[inline]
    fn slot(board: u64, players: u16) -> usize {
        let h = (board ^ u64::from(players).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        (h >> (64 - TABLE_BITS)) as usize
    }
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::new());
}

/// What a search is allowed: an optional deadline, checked every 64k nodes.
struct Search {
    nodes: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

struct Searcher<'t> {
    table: &'t mut Table,
    search: &'t mut Search,
}

impl Searcher<'_> {
    fn negamax(&mut self, board: u64, me: u32, other: u32, ply: i32, alpha: i32, beta: i32) -> i32 {
        self.search.nodes += 1;
        if self.search.nodes & 0xffff == 0 {
            if let Some(deadline) = self.search.deadline {
                if Instant::now() >= deadline {
                    self.search.out_of_time = true;
                }
            }
        }
        if self.search.out_of_time {
            return 0;
        }
        let lose_now = -(BIG - ply);
        // My foothold vanished under me (the other player left our shared cell),
        // or I have nowhere to go: I lose before moving.
        if board & (1 << me) == 0 {
            return lose_now;
        }
        let moves = NEIGHBOURS[me as usize] & board;
        if moves == 0 {
            return lose_now;
        }
        let (mut alpha, mut beta) = (alpha.max(lose_now), beta.min(BIG - ply - 1));
        if alpha >= beta {
            return alpha;
        }

        let players = (me | other << 6 | 1 << 12) as u16;
        let slot = Table::slot(board, players);
        let entry = self.table.entries[slot];
        let mut first = u32::MAX;
        if entry.board == board && entry.players == players {
            let value = from_stored(entry.value, ply);
            match entry.flag {
                EXACT => return value,
                LOWER => alpha = alpha.max(value),
                _ => beta = beta.min(value),
            }
            if alpha >= beta {
                return value;
            }
            first = u32::from(entry.best);
        }

        // Order: the table's move, then by footholds around the destination.
        let child = board & !(1 << me);
        let mut order = [(0u32, 0i32); 4];
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let key = if to == first {
                i32::MAX
            } else {
                (NEIGHBOURS[to as usize] & child).count_ones() as i32
            };
            order[count] = (to, key);
            count += 1;
        }
        order[..count].sort_unstable_by_key(|m| std::cmp::Reverse(m.1));

        let original_alpha = alpha;
        let mut best = i32::MIN;
        let mut best_move = order[0].0;
        for &(to, _) in &order[..count] {
            let value = -self.negamax(child, other, to, ply + 1, -beta, -alpha);
            if self.search.out_of_time {
                return 0;
            }
            if value > best {
                best = value;
                best_move = to;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let flag = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table.entries[slot] = Entry {
            board,
            players,
            value: to_stored(best, ply),
            flag,
            best: best_move as u8,
        };
        best
    }
}

/// A value at `ply` as stored: relative to the position, `±(BIG - moves left)`.
#[inline]
fn to_stored(value: i32, ply: i32) -> i16 {
    (if value > 0 { value + ply } else { value - ply }) as i16
}

#[inline]
fn from_stored(value: i16, ply: i32) -> i32 {
    let value = i32::from(value);
    if value > 0 {
        value - ply
    } else {
        value + ply
    }
}

fn bit((r, c): Pos) -> u32 {
    u32::from(r) * 8 + u32::from(c)
}

/// Solves one game within an optional deadline: the total number of moves, or
/// `None` when the deadline passed first. Also reports the nodes searched.
pub fn solve_within(game: &Game, deadline: Option<Instant>) -> (Option<u32>, u64) {
    let mut search = Search {
        nodes: 0,
        deadline,
        out_of_time: false,
    };
    let mut run = |table: &mut Table| {
        let mut searcher = Searcher {
            table,
            search: &mut search,
        };
        searcher.negamax(game.mask(), bit(game.a), bit(game.b), 0, -BIG, BIG)
    };
    // The search never calls back into a solve, so the table is never borrowed
    // twice.
    let value = TABLE.with_borrow_mut(|table| run(table));
    if search.out_of_time {
        (None, search.nodes)
    } else {
        (Some((BIG - value.abs()) as u32), search.nodes)
    }
}

/// Empties this thread's transposition table, so that a timed solve starts cold
/// (benchmarks); results never depend on it.
pub fn clear_table() {
    TABLE.with_borrow_mut(|table| table.entries.fill(Entry::default()));
}

/// Solves every game of a case. No trace to compare: the digest is 0.
pub fn solve(case: &Case) -> crate::Run<Answer> {
    crate::Run {
        answer: case
            .games
            .iter()
            .map(|game| solve_within(game, None).0.expect("no deadline"))
            .collect(),
        digest: 0,
    }
}
