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
//! - Each bot runs in its own process group, killed as a whole at the end.
//! - Timeout, crash (end of output or a closed pipe), a malformed answer or an
//!   illegal action list loses; both at once is a draw.

use super::protocol::{Figures, Init, TurnLine};
use super::render;
use crate::process::Program;
use lockstep_core::duel::{
    check_legal, parse_actions, resolve_traced, write_actions, write_state, Action, Actions, Cell,
    Outcome, Reason, Recorder, State, Winner, MAX_ANSWER_BYTES, TIME_BUDGET_MS,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct RefereeOptions {
    pub commands: [String; 2],
    /// Spring, player 1 start, player 2 start.
    pub init: (Cell, Cell, Cell),
    pub render: bool,
}

/// What the reader thread saw on a bot's stdout.
enum Message {
    Line(String, Instant),
    TooLong(Instant),
    Eof(Instant),
}

/// One bot process.
struct Bot {
    program: Program,
    stdin: Option<ChildStdin>,
    answers: Receiver<Message>,
    /// Time used so far.
    used: Duration,
}

fn reader(stdout: impl Read, tx: mpsc::SyncSender<Message>) {
    let mut stdout = BufReader::new(stdout);
    let mut line = Vec::with_capacity(MAX_ANSWER_BYTES + 1);
    loop {
        line.clear();
        // At most one byte over the limit, so a bot that never sends a newline
        // cannot make the referee buffer without end.
        let mut limited = (&mut stdout).take(MAX_ANSWER_BYTES as u64 + 1);
        let message = match limited.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => Message::Eof(Instant::now()),
            Ok(n) if n > MAX_ANSWER_BYTES || !line.ends_with(b"\n") => {
                if line.len() > MAX_ANSWER_BYTES {
                    Message::TooLong(Instant::now())
                } else {
                    // Output ended without a newline.
                    Message::Eof(Instant::now())
                }
            }
            Ok(_) => Message::Line(
                String::from_utf8_lossy(&line).trim_end().to_string(),
                Instant::now(),
            ),
        };
        let last = !matches!(message, Message::Line(..));
        if tx.send(message).is_err() || last {
            return;
        }
    }
}

impl Bot {
    fn start(command: &str) -> std::io::Result<Bot> {
        // In its own process group, so that the children a bot starts (a shell
        // script's `sleep`, say) are killed with it and cannot hold our pipes.
        // A bot's stderr is the user's to read.
        let mut spawn = crate::process::command(command);
        spawn.stderr(Stdio::inherit());
        let mut program = Program::spawn(spawn)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{command:?}: {e}")))?;
        let child = program.child_mut();
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        // Bounded: a bot that floods answers blocks on its own pipe instead of
        // filling the referee's memory.
        let (tx, rx) = mpsc::sync_channel(4);
        std::thread::spawn(move || reader(stdout, tx));
        Ok(Bot {
            stdin,
            program,
            answers: rx,
            used: Duration::ZERO,
        })
    }

    /// Sends one line; false if the bot's input is closed (it crashed).
    fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        }
    }

    fn remaining(&self) -> Duration {
        Duration::from_millis(TIME_BUDGET_MS).saturating_sub(self.used)
    }

    /// Waits for the answer to a line sent at `sent`, charging the time.
    fn answer(&mut self, sent: Instant) -> Result<String, Failure> {
        let deadline = sent + self.remaining();
        let wait = deadline.saturating_duration_since(Instant::now());
        let message = match self.answers.recv_timeout(wait) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => {
                self.used = Duration::from_millis(TIME_BUDGET_MS);
                return Err(Failure::new(FailureKind::Timeout, "ran out of time"));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Failure::new(FailureKind::Crash, "crashed"))
            }
        };
        let at = match &message {
            Message::Line(_, at) | Message::TooLong(at) | Message::Eof(at) => *at,
        };
        self.used += at.saturating_duration_since(sent);
        if self.used > Duration::from_millis(TIME_BUDGET_MS) {
            return Err(Failure::new(FailureKind::Timeout, "ran out of time"));
        }
        match message {
            Message::Line(line, _) => Ok(line),
            Message::TooLong(_) => Err(Failure::new(
                FailureKind::Protocol,
                format!("answered a line longer than {MAX_ANSWER_BYTES} bytes"),
            )),
            Message::Eof(_) => Err(Failure::new(
                FailureKind::Crash,
                "crashed (its output ended)",
            )),
        }
    }

    fn stop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.send("FINISH");
        }
        self.stdin = None;
        // A short grace period to exit on FINISH; then the group is killed either
        // way, since a bot that exited may have left children behind.
        let until = Instant::now() + Duration::from_millis(100);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.program.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.program.stop();
    }
}

/// How the game ended, in words.
#[derive(Debug, Clone)]
pub struct GameReport {
    pub outcome: Outcome,
    pub reason: String,
    /// The last turn played (0 if the game ended before turn 1).
    pub turns: u8,
    pub final_state: State,
    pub time_used_ms: [u128; 2],
    /// The referee's own work per turn (everything but waiting for the bots), in
    /// microseconds: mean and max.
    pub overhead_us: (f64, f64),
    /// Why each player lost by breaking the protocol or the rules, if it did.
    pub failures: [Option<Failure>; 2],
}

/// The kind of a player's failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    Timeout,
    Crash,
    /// Answered READY with something other than OK.
    Ready,
    /// A malformed answer, or one over the byte limit.
    Protocol,
    Illegal,
}

/// Why a player lost by breaking the protocol or the rules: its kind, and the
/// referee's words for it (what the report and the log print).
#[derive(Debug, Clone)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn loser_outcome(failed: [Option<Failure>; 2]) -> Option<(Outcome, String)> {
    match failed {
        [None, None] => None,
        [Some(a), Some(b)] => Some((
            Outcome::Ended(Winner::Draw, Reason::Illegal),
            format!("both lose: player 1 {a}; player 2 {b}"),
        )),
        [Some(a), None] => Some((
            Outcome::Ended(Winner::P2, Reason::Illegal),
            format!("player 1 {a}"),
        )),
        [None, Some(b)] => Some((
            Outcome::Ended(Winner::P1, Reason::Illegal),
            format!("player 2 {b}"),
        )),
    }
}

/// Plays one game. `log` receives one block per turn.
pub fn run(options: &RefereeOptions, log: &mut dyn Write) -> std::io::Result<GameReport> {
    let mut bots = [
        Bot::start(&options.commands[0])?,
        Bot::start(&options.commands[1])?,
    ];
    let result = play(&mut bots, options, log);
    for bot in &mut bots {
        bot.stop();
    }
    result
}

/// Sends `lines` to both bots, then collects both answers.
fn exchange(bots: &mut [Bot; 2], lines: [&str; 2]) -> [Result<String, Failure>; 2] {
    let mut sent = [Instant::now(); 2];
    let mut ok = [true; 2];
    for p in 0..2 {
        sent[p] = Instant::now();
        ok[p] = bots[p].send(lines[p]);
    }
    let mut out = [Ok(String::new()), Ok(String::new())];
    for p in 0..2 {
        out[p] = if ok[p] {
            bots[p].answer(sent[p])
        } else {
            Err(Failure::new(
                FailureKind::Crash,
                "crashed (its input is closed)",
            ))
        };
    }
    out
}

fn play(
    bots: &mut [Bot; 2],
    options: &RefereeOptions,
    log: &mut dyn Write,
) -> std::io::Result<GameReport> {
    let (spring, p1, p2) = options.init;
    let mut state = State::initial(spring, p1, p2);
    let report = |outcome, reason, turns, state, bots: &[Bot; 2], overhead: &[f64], failures| {
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
    };
    let init = Init { spring, p1, p2 }.to_string();
    for bot in bots.iter_mut() {
        bot.send(&init);
    }
    let ready = exchange(bots, ["READY FIRST", "READY SECOND"]);
    let failed = ready.map(|r| match r {
        Ok(line) if line.trim() == "OK" => None,
        Ok(line) => Some(Failure::new(
            FailureKind::Ready,
            format!("answered READY with {line:?} instead of OK"),
        )),
        Err(e) => Some(e),
    });
    writeln!(log, "{init}")?;
    if let Some((outcome, reason)) = loser_outcome(failed.clone()) {
        return Ok(report(outcome, reason, 0, state, bots, &[], failed));
    }
    let mut previous: [Actions; 2] = [[Action::WAIT; 2]; 2];
    let mut overhead = Vec::new();
    let mut work_start = Instant::now();
    loop {
        let lines = [0, 1].map(|p| {
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
        });
        let before: [Duration; 2] = [bots[0].used, bots[1].used];
        overhead.push(work_start.elapsed().as_secs_f64() * 1e6);
        let answers = exchange(bots, [&lines[0], &lines[1]]);
        work_start = Instant::now();
        let mut actions = [[Action::WAIT; 2]; 2];
        let mut failed: [Option<Failure>; 2] = [None, None];
        for p in 0..2 {
            match &answers[p] {
                Err(e) => failed[p] = Some(e.clone()),
                Ok(line) => match parse_actions(line) {
                    Err(e) => {
                        failed[p] = Some(Failure::new(
                            FailureKind::Protocol,
                            format!("sent a malformed answer {line:?}: {e}"),
                        ))
                    }
                    Ok(list) => match check_legal(&state, p, &list) {
                        Err(e) => {
                            failed[p] = Some(Failure::new(
                                FailureKind::Illegal,
                                format!("played illegally ({line}): {e}"),
                            ))
                        }
                        Ok(()) => actions[p] = list,
                    },
                },
            }
        }
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
            return Ok(report(
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
        if options.render {
            // A player pushed out is drawn on the nearest cell of the yard.
            let mut shown = result.next;
            let out = !shown
                .players
                .iter()
                .all(|p| lockstep_core::duel::inside(p.pos));
            for p in &mut shown.players {
                p.pos = (p.pos.0.clamp(1, 7), p.pos.1.clamp(1, 7));
            }
            print!(
                "turn {}: p1 {} | p2 {}{}\n{}",
                state.turn,
                write_actions(&actions[0]),
                write_actions(&actions[1]),
                if out {
                    " (a player is out of the yard)"
                } else {
                    ""
                },
                render(&shown)
            );
        }
        let turn = state.turn;
        state = result.next;
        previous = actions;
        if let Outcome::Ended(winner, reason) = result.outcome {
            let who = |w: Winner| match w {
                Winner::P1 => "player 2",
                _ => "player 1",
            };
            let text = match reason {
                Reason::Hp => "hp reached 0 or below".to_string(),
                Reason::Out => format!("{} was pushed out of the yard", who(winner)),
                Reason::Blessing => "blessing reached 10".to_string(),
                Reason::Turns => "turn 60 ended: decided by blessing, then hp".to_string(),
                Reason::Illegal => "an illegal action list".to_string(),
            };
            return Ok(report(
                result.outcome,
                text,
                turn,
                state,
                bots,
                &overhead,
                [None, None],
            ));
        }
    }
}
