//! The duel's positions, which two puzzles stand on: the duel's lines are a
//! position and the players' actions, and duel search's cases are
//! positions. What both need of a position lives here, below both puzzle
//! folders: a position from bytes (shaped toward the corners the rules
//! care about), its simpler variants for the shrinker, the distance between
//! the players, and how many placements two players have at a distance.

use arbitrary::Unstructured;
use lockstep_core::duel::{
    Cell, Player, State, COOLDOWN, LAST_TURN, SIZE, START_HP, WINNING_BLESSING,
};

pub(crate) fn any_cell(u: &mut Unstructured<'_>) -> arbitrary::Result<Cell> {
    Ok((u.int_in_range(1..=SIZE)?, u.int_in_range(1..=SIZE)?))
}

/// A cell within `radius` of `centre`, clamped to the yard.
pub(crate) fn near(u: &mut Unstructured<'_>, centre: Cell, radius: i8) -> arbitrary::Result<Cell> {
    let dr = u.int_in_range(-radius..=radius)?;
    let dc = u.int_in_range(-radius..=radius)?;
    Ok((
        (centre.0 + dr).clamp(1, SIZE),
        (centre.1 + dc).clamp(1, SIZE),
    ))
}

pub(crate) fn edge_cell(u: &mut Unstructured<'_>) -> arbitrary::Result<Cell> {
    let along = u.int_in_range(1..=SIZE)?;
    let side = if u.ratio(1, 2)? { 1 } else { SIZE };
    Ok(if u.ratio(1, 2)? {
        (side, along)
    } else {
        (along, side)
    })
}

pub(crate) fn generate_player(u: &mut Unstructured<'_>, pos: Cell) -> arbitrary::Result<Player> {
    let hp = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(1..=3)?,
        1 => u.int_in_range(1..=START_HP)?,
        _ => START_HP,
    };
    let blessing = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(7..=WINNING_BLESSING - 1)?,
        1 => u.int_in_range(0..=WINNING_BLESSING - 1)?,
        _ => 0,
    };
    let mut waits = [0u8; 6];
    match u.int_in_range(0..=3u8)? {
        // Every skill usable: the most interesting turns.
        0 | 1 => {}
        // Any wait pattern.
        2 => {
            for (s, w) in waits.iter_mut().enumerate() {
                *w = u.int_in_range(0..=COOLDOWN[s + 2])?;
            }
        }
        // Everything waiting: only wait and move are left.
        _ => {
            for (s, w) in waits.iter_mut().enumerate() {
                *w = COOLDOWN[s + 2];
            }
        }
    }
    Ok(Player {
        pos,
        hp,
        blessing,
        waits,
    })
}

pub(crate) fn generate_state(u: &mut Unstructured<'_>) -> arbitrary::Result<State> {
    let p1 = match u.int_in_range(0..=2u8)? {
        0 => edge_cell(u)?,
        _ => any_cell(u)?,
    };
    let mut p2 = match u.int_in_range(0..=3u8)? {
        0 => near(u, p1, 1)?,
        1 => near(u, p1, 2)?,
        2 => near(u, p1, 3)?,
        _ => any_cell(u)?,
    };
    if p2 == p1 {
        // Next cell in row-major order, wrapping.
        let i = ((p1.0 - 1) * SIZE + p1.1) % (SIZE * SIZE);
        p2 = (i / SIZE + 1, i % SIZE + 1);
    }
    let spring = match u.int_in_range(0..=3u8)? {
        0 => near(u, p1, 1)?,
        1 => near(u, p2, 1)?,
        _ => any_cell(u)?,
    };
    let turn = match u.int_in_range(0..=5u8)? {
        0 => LAST_TURN,
        1 => 1,
        _ => u.int_in_range(1..=LAST_TURN)?,
    };
    Ok(State {
        turn,
        spring,
        players: [generate_player(u, p1)?, generate_player(u, p2)?],
    })
}

pub(crate) fn chebyshev(a: Cell, b: Cell) -> i8 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn step_toward(from: Cell, to: Cell) -> Cell {
    (
        from.0 + (to.0 - from.0).signum(),
        from.1 + (to.1 - from.1).signum(),
    )
}

/// Simpler valid states than `state`, one change each: waits to 0, hp to 10 or
/// up by one, blessing to 0 or down by one, a player one step toward the other,
/// turn toward 1, spring toward (1, 1).
pub(crate) fn simpler_states(state: &State) -> Vec<State> {
    let mut out = Vec::new();
    let mut with = |f: &dyn Fn(&mut State)| {
        let mut s = *state;
        f(&mut s);
        if s != *state && s.validate().is_ok() {
            out.push(s);
        }
    };
    for p in 0..2 {
        with(&|s| s.players[p].waits = [0; 6]);
        for w in 0..6 {
            with(&|s| s.players[p].waits[w] = 0);
        }
        with(&|s| s.players[p].hp = START_HP);
        with(&|s| s.players[p].blessing = 0);
        with(&|s| {
            let pl = &mut s.players[p];
            pl.hp = (pl.hp + 1).min(START_HP);
        });
        with(&|s| {
            let pl = &mut s.players[p];
            pl.blessing = pl.blessing.saturating_sub(1);
        });
        // Toward the other player, as long as they stay apart.
        with(&|s| {
            let other = s.players[1 - p].pos;
            let me = s.players[p].pos;
            if chebyshev(me, other) > 1 {
                s.players[p].pos = step_toward(me, other);
            }
        });
    }
    with(&|s| s.turn = 1);
    with(&|s| s.turn = s.turn.saturating_sub(1).max(1));
    with(&|s| s.spring = step_toward(s.spring, (1, 1)));
    out
}

/// The placements of two players `d` apart (the levels of both duel puzzles): for
/// each offset at that distance, the cells player 1 may stand on with
/// player 2 that far, (7 - |dr|) (7 - |dc|).
pub(crate) fn placements(d: u32) -> u64 {
    let d = i64::from(d);
    let side = i64::from(SIZE);
    let mut total = 0;
    for dr in -d..=d {
        for dc in -d..=d {
            if dr.abs().max(dc.abs()) == d && d > 0 {
                total += ((side - dr.abs()).max(0) * (side - dc.abs()).max(0)) as u64;
            }
        }
    }
    total
}
