//! Deep perft: u128 counts, the transposition table, every core, progress.
//!
//! A count from a position first walks a few plies ([`SPLIT_PLIES`]) and
//! merges the positions reached there, each with the number of paths that
//! reach it (transpositions near the root are counted once and multiplied).
//! The threads take those positions from an atomic counter and count each to
//! the remaining depth, sharing one table; the calling thread reports progress
//! meanwhile. Below, a node at remaining depth 1 is counted in bulk; a node at
//! remaining depth [`PerftOptions::table_depth`] or more is looked up in the
//! table first and stored after.

use super::table::{key, Table, TableStats, MAX_KEY_DEPTH};
use super::{count_moves, legal_moves, position_of, push_children, Captures};
use crate::checkers::fast::Position;
use crate::checkers::{Board, Move, Side};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Plies walked before the work is shared out: a few hundred positions from
/// the start, enough for every thread to keep busy to the end.
const SPLIT_PLIES: u32 = 4;
/// Counts this shallow run on the calling thread alone.
const SHALLOW: u32 = 7;

/// How to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerftOptions {
    /// Threads counting (at least 1).
    pub threads: usize,
    /// The table's size in bytes; 0 counts without one.
    pub table_bytes: usize,
    /// Nodes at this remaining depth or deeper go through the table (2 and up:
    /// depth 1 is bulk-counted).
    pub table_depth: u32,
    pub captures: Captures,
}

impl Default for PerftOptions {
    fn default() -> PerftOptions {
        PerftOptions {
            threads: 1,
            table_bytes: 0,
            table_depth: 2,
            captures: Captures::Paths,
        }
    }
}

/// Where a long count stands: positions of the split counted, of how many,
/// since when.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub elapsed: Duration,
}

/// One first move and its count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divided {
    pub first: Move,
    pub after: Board,
    pub nodes: u128,
}

/// A perft counter: its options and its table (kept from one count to the
/// next of the same depth; [`Perft::clear`] empties it).
pub struct Perft {
    options: PerftOptions,
    table: Option<Table>,
    stats: Mutex<TableStats>,
    /// Entries stored since the table was last emptied.
    stored: u64,
}

/// One thread's scratch: the child stack and its table statistics.
struct Worker<'a> {
    table: Option<&'a Table>,
    table_depth: u32,
    captures: Captures,
    stack: Vec<Position>,
    stats: TableStats,
}

#[inline(always)]
fn key_of(position: &Position, depth: u32) -> u128 {
    key(
        position.red,
        position.white,
        position.kings,
        position.to_move == Side::White,
        depth,
    )
}

impl Worker<'_> {
    fn count(&mut self, position: &Position, depth: u32) -> u128 {
        if depth <= 1 {
            return if depth == 0 {
                1
            } else {
                u128::from(count_moves(position, self.captures, &mut self.stack))
            };
        }
        let key = match self.table {
            Some(table) if depth >= self.table_depth => {
                let key = key_of(position, depth);
                if let Some(nodes) = table.probe(key, &mut self.stats) {
                    return nodes;
                }
                Some((table, key))
            }
            _ => None,
        };
        let base = self.stack.len();
        push_children(position, self.captures, &mut self.stack);
        if let Some(table) = self.table.filter(|_| depth > self.table_depth) {
            // The children's buckets are fetched together, not one miss at a time.
            let mut touched = 0;
            for child in &self.stack[base..] {
                touched ^= table.touch(key_of(child, depth - 1));
            }
            std::hint::black_box(touched);
        }
        let mut nodes = 0;
        for index in base..self.stack.len() {
            let child = self.stack[index];
            nodes += self.count(&child, depth - 1);
        }
        self.stack.truncate(base);
        if let Some((table, key)) = key {
            table.store(key, nodes, &mut self.stats);
        }
        nodes
    }
}

impl Perft {
    /// A counter; allocates the table (its memory is touched now).
    pub fn new(options: PerftOptions) -> Perft {
        let options = PerftOptions {
            threads: options.threads.max(1),
            table_depth: options.table_depth.max(2),
            ..options
        };
        Perft {
            table: (options.table_bytes > 0).then(|| Table::new(options.table_bytes)),
            options,
            stats: Mutex::new(TableStats::default()),
            stored: 0,
        }
    }

    pub fn options(&self) -> PerftOptions {
        self.options
    }

    /// The table's size in bytes (0 without one).
    pub fn table_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, Table::bytes)
    }

    /// Probes, hits and stores since the counter was made or cleared.
    pub fn stats(&self) -> TableStats {
        *self.stats.lock().expect("no thread panics holding it")
    }

    /// Makes room for a new count: empties the table when the counts since the
    /// last clearing stored more than a sixteenth of its entries (fewer stale
    /// entries are not worth a pass over the memory), and the statistics.
    /// Entries of one count are right in any other (the key holds the
    /// position and the depth); clearing only makes room.
    pub fn clear(&mut self) {
        let mut stats = self.stats.lock().expect("no thread panics holding it");
        if let Some(table) = &mut self.table {
            self.stored += stats.stores;
            if self.stored > table.entries() / 16 {
                table.clear();
                self.stored = 0;
            }
        }
        *stats = TableStats::default();
    }

    fn worker(&self) -> Worker<'_> {
        Worker {
            table: self.table.as_ref(),
            table_depth: self.options.table_depth,
            captures: self.options.captures,
            stack: Vec::with_capacity(1024),
            stats: TableStats::default(),
        }
    }

    /// Leaf nodes `depth` plies from `board`, `to_move` to move; `progress`
    /// is called about once a second while the threads count.
    pub fn count(
        &self,
        board: &Board,
        to_move: Side,
        depth: u32,
        progress: &mut dyn FnMut(Progress),
    ) -> u128 {
        let position = position_of(board, to_move);
        // The key has 5 bits of depth: deeper than that, the first plies are
        // walked without the table (the split below) and the rest with it.
        let split = if depth <= SHALLOW {
            0
        } else {
            SPLIT_PLIES.max(depth.saturating_sub(MAX_KEY_DEPTH))
        };
        if split == 0 {
            let mut worker = self.worker();
            let nodes = worker.count(&position, depth);
            self.stats.lock().expect("no panic").add(worker.stats);
            return nodes;
        }
        let tasks = self.frontier(&position, split);
        self.share_out(&tasks, depth - split, progress)
    }

    /// The positions `plies` from `root`, each once, with the number of paths
    /// that reach it.
    fn frontier(&self, root: &Position, plies: u32) -> Vec<(Position, u128)> {
        let mut level = vec![(*root, 1u128)];
        for _ in 0..plies {
            let mut next: HashMap<(u32, u32, u32, bool), u128> = HashMap::new();
            let mut order = Vec::new();
            let mut children = Vec::new();
            for (position, paths) in &level {
                children.clear();
                push_children(position, self.options.captures, &mut children);
                for child in &children {
                    let k = (
                        child.red,
                        child.white,
                        child.kings,
                        child.to_move == Side::Red,
                    );
                    let entry = next.entry(k).or_insert_with(|| {
                        order.push(*child);
                        0
                    });
                    *entry += paths;
                }
            }
            level = order
                .into_iter()
                .map(|p| {
                    let k = (p.red, p.white, p.kings, p.to_move == Side::Red);
                    (p, next[&k])
                })
                .collect();
        }
        level
    }

    /// Counts every task's position to `depth` on the threads, reporting
    /// progress from this one; the sum of count times paths.
    fn share_out(
        &self,
        tasks: &[(Position, u128)],
        depth: u32,
        progress: &mut dyn FnMut(Progress),
    ) -> u128 {
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let start = Instant::now();
        let (finished, wait) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.options.threads)
                .map(|_| {
                    let finished = finished.clone();
                    let (next, done) = (&next, &done);
                    scope.spawn(move || {
                        let mut worker = self.worker();
                        let mut nodes = 0u128;
                        while let Some((position, paths)) =
                            tasks.get(next.fetch_add(1, Ordering::Relaxed))
                        {
                            nodes += worker.count(position, depth) * paths;
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        self.stats.lock().expect("no panic").add(worker.stats);
                        drop(finished);
                        nodes
                    })
                })
                .collect();
            drop(finished);
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_secs(1))
            {
                progress(Progress {
                    done: done.load(Ordering::Relaxed),
                    total: tasks.len(),
                    elapsed: start.elapsed(),
                });
            }
            workers
                .into_iter()
                .map(|w| w.join().expect("perft workers do not panic"))
                .sum()
        })
    }

    /// The count after each first move (as [`legal_moves`] lists them, in its
    /// order); `progress` gets the move being counted too.
    pub fn divide(
        &self,
        board: &Board,
        to_move: Side,
        depth: u32,
        progress: &mut dyn FnMut(&Move, Progress),
    ) -> Vec<Divided> {
        assert!(depth >= 1, "a divide needs a first move");
        legal_moves(board, to_move, self.options.captures)
            .into_iter()
            .map(|(first, after)| {
                let nodes = self.count(&after, to_move.opponent(), depth - 1, &mut |p| {
                    progress(&first, p)
                });
                Divided {
                    first,
                    after,
                    nodes,
                }
            })
            .collect()
    }
}
