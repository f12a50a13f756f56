//! The referee: runs two bot programs (`sh -c CMD`) through the statement's
//! protocol and plays the game with core's resolver.
//!
//! - Each bot's answers are read on a thread of their own and handed over a
//!   channel with their arrival time, so the referee waits with `recv_timeout` and
//!   never hangs on a bot that stops answering; every child is killed at the end.
//! - Time is each bot's total budget (1000 ms for READY and all TURNs), measured on
//!   the referee's clock from sending a line to the arrival of the answer.
//! - An answer longer than 128 bytes (newline included) is rejected as soon as its
//!   129th byte arrives, whether or not a newline ever follows.
//!   That holds even for a line sent before the bot was asked anything: if the
//!   bot then dies of the broken pipe, the long line, not the crash, is the fault.
//! - Each bot runs in its own process group, killed as a whole at the end.
//! - Timeout, crash (end of output or a closed pipe), a malformed answer or an
//!   illegal action list loses; both at once is a draw.

use super::protocol::{Figures, Init, TurnLine};
use super::render;
use lockstep_core::duel::{
    check_legal, parse_actions, resolve_traced, write_actions, write_state, Action, Actions,
    Outcome, Reason, Recorder, State, Winner, MAX_ANSWER_BYTES, TIME_BUDGET_MS,
};
use lockstep_process::Program;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct RefereeOptions {
    pub commands: [String; 2],
    /// The spring and the players' starting cells.
    pub init: Init,
}

mod exchange;
mod judging;

use exchange::*;
pub use judging::*;

/// Plays one game. `log` receives one block per turn.
pub fn referee_game(options: &RefereeOptions, log: &mut dyn Write) -> std::io::Result<GameReport> {
    referee_drawing(options, log, None)
}

/// [`referee_game`], also drawing the yard after every turn to `board` (what
/// `lockstep duel referee --render` shows on stdout).
pub fn referee_drawing(
    options: &RefereeOptions,
    log: &mut dyn Write,
    board: Option<&mut dyn Write>,
) -> std::io::Result<GameReport> {
    let mut bots = [
        Bot::start(&options.commands[0])?,
        Bot::start(&options.commands[1])?,
    ];
    let result = play(&mut bots, options, log, board);
    for bot in &mut bots {
        bot.stop();
    }
    result
}

fn play(
    bots: &mut [Bot; 2],
    options: &RefereeOptions,
    log: &mut dyn Write,
    mut board: Option<&mut dyn Write>,
) -> std::io::Result<GameReport> {
    let mut state = State::initial(options.init.spring, options.init.p1, options.init.p2);
    let mut overhead = Vec::new();
    let init = options.init.to_string();
    let failed = ready(bots, &init);
    writeln!(log, "{init}")?;
    if let Some((outcome, reason)) = loser_outcome(failed.clone()) {
        return Ok(game_report(outcome, reason, 0, state, bots, &[], failed));
    }
    let mut previous: [Actions; 2] = [[Action::WAIT; 2]; 2];
    let mut work_start = Instant::now();
    loop {
        let lines = turn_lines(&state, bots, &previous);
        let before: [Duration; 2] = [bots[0].used, bots[1].used];
        overhead.push(work_start.elapsed().as_secs_f64() * 1e6);
        let answers = exchange(bots, [&lines[0], &lines[1]]);
        work_start = Instant::now();
        let (actions, failed) = read_answers(&state, &answers);
        let used_ms = [0, 1].map(|p| (bots[p].used - before[p]).as_millis());
        writeln!(
            log,
            "turn {} | {} | p1: {} ({} ms) | p2: {} ({} ms)",
            state.turn,
            write_state(&state),
            answers[0].as_deref().unwrap_or("-"),
            used_ms[0],
            answers[1].as_deref().unwrap_or("-"),
            used_ms[1]
        )?;
        if let Some((outcome, reason)) = loser_outcome(failed.clone()) {
            writeln!(log, "  {reason}")?;
            return Ok(game_report(
                outcome, reason, state.turn, state, bots, &overhead, failed,
            ));
        }
        let mut events = Recorder::default();
        let result = resolve_traced(&state, &actions, &mut events);
        for e in &events.0 {
            writeln!(log, "  {e}")?;
        }
        writeln!(
            log,
            "  -> {} | {}",
            write_state(&result.next),
            result.outcome
        )?;
        if let Some(board) = board.as_deref_mut() {
            draw_turn(board, state.turn, &actions, &result.next)?;
        }
        let turn = state.turn;
        state = result.next;
        previous = actions;
        if let Outcome::Ended(winner, reason) = result.outcome {
            let reason = ending_reason(winner, reason);
            return Ok(game_report(
                result.outcome,
                reason,
                turn,
                state,
                bots,
                &overhead,
                [None, None],
            ));
        }
    }
}

/// The game's report: how it ended, the bots' time, the referee's own time
/// per turn (mean and largest, in microseconds).
fn game_report(
    outcome: Outcome,
    reason: String,
    turns: u8,
    state: State,
    bots: &[Bot; 2],
    overhead: &[f64],
    failures: [Option<BotFault>; 2],
) -> GameReport {
    let mean = overhead.iter().fold(0.0, |a, b| a + b) / overhead.len().max(1) as f64;
    let max = overhead.iter().copied().fold(0.0, f64::max);
    GameReport {
        outcome,
        reason,
        turns,
        final_state: state,
        time_used_ms: [bots[0].used.as_millis(), bots[1].used.as_millis()],
        overhead_us: (mean, max),
        failures,
    }
}

/// INIT to both bots, then READY FIRST and READY SECOND: each bot's fault,
/// if it did not answer OK.
fn ready(bots: &mut [Bot; 2], init: &str) -> [Option<BotFault>; 2] {
    for bot in bots.iter_mut() {
        bot.send(init);
    }
    exchange(bots, ["READY FIRST", "READY SECOND"]).map(|r| match r {
        Ok(line) if line.trim() == "OK" => None,
        Ok(line) => Some(BotFault::new(
            FaultKind::Ready,
            format!("answered READY with {line:?} instead of OK"),
        )),
        Err(e) => Some(e),
    })
}

/// Each player's TURN line: its time left, the turn, both players' figures,
/// and the opponent's previous actions.
fn turn_lines(state: &State, bots: &[Bot; 2], previous: &[Actions; 2]) -> [String; 2] {
    [0, 1].map(|p| {
        TurnLine {
            time_ms: bots[p].remaining().as_millis() as u64,
            turn: state.turn,
            players: state.players.map(|q| Figures {
                pos: q.pos,
                hp: q.hp,
                blessing: q.blessing,
            }),
            previous: previous[1 - p],
        }
        .to_string()
    })
}

/// The actions each answer names, or the player's fault: no answer, a
/// malformed one, or an illegal list.
fn read_answers(
    state: &State,
    answers: &[Result<String, BotFault>; 2],
) -> ([Actions; 2], [Option<BotFault>; 2]) {
    let mut actions = [[Action::WAIT; 2]; 2];
    let mut failed: [Option<BotFault>; 2] = [None, None];
    for p in 0..2 {
        match &answers[p] {
            Err(e) => failed[p] = Some(e.clone()),
            Ok(line) => match parse_actions(line) {
                Err(e) => {
                    failed[p] = Some(BotFault::new(
                        FaultKind::Protocol,
                        format!("sent a malformed answer {line:?}: {e}"),
                    ))
                }
                Ok(list) => match check_legal(state, p, &list) {
                    Err(e) => {
                        failed[p] = Some(BotFault::new(
                            FaultKind::Illegal,
                            format!("played illegally ({line}): {e}"),
                        ))
                    }
                    Ok(()) => actions[p] = list,
                },
            },
        }
    }
    (actions, failed)
}

/// The yard after a turn, for `--render`.
fn draw_turn(
    board: &mut dyn Write,
    turn: u8,
    actions: &[Actions; 2],
    next: &State,
) -> std::io::Result<()> {
    let out = !next
        .players
        .iter()
        .all(|p| lockstep_core::duel::inside(p.pos));
    write!(
        board,
        "turn {turn}: p1 {} | p2 {}{}\n{}",
        write_actions(&actions[0]),
        write_actions(&actions[1]),
        if out {
            " (a player is out of the yard)"
        } else {
            ""
        },
        render(next)
    )
}

/// How a game that the rules ended ended, in words.
fn ending_reason(winner: Winner, reason: Reason) -> String {
    let loser = match winner {
        Winner::P1 => "player 2",
        _ => "player 1",
    };
    match reason {
        Reason::Hp => "hp reached 0 or below".to_string(),
        Reason::Out => format!("{loser} was pushed out of the yard"),
        Reason::Blessing => "blessing reached 10".to_string(),
        Reason::Turns => "turn 60 ended: decided by blessing, then hp".to_string(),
        Reason::Illegal => "an illegal action list".to_string(),
    }
}
