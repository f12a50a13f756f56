//! The exchange with the bot processes: each bot's answers read on a thread
//! of its own and handed over with their arrival time, lines sent and answers
//! collected under each bot's time budget.

use super::*;

/// What the reader thread saw on a bot's stdout.
pub(super) enum Arrival {
    Line(String, Instant),
    TooLong(Instant),
    Eof(Instant),
}

/// One bot process.
pub(super) struct Bot {
    pub(super) program: Program,
    pub(super) stdin: Option<ChildStdin>,
    pub(super) answers: Receiver<Arrival>,
    /// Time used so far.
    pub(super) used: Duration,
}

pub(super) fn reader(stdout: impl Read, tx: mpsc::SyncSender<Arrival>) {
    let mut stdout = BufReader::new(stdout);
    let mut line = Vec::with_capacity(MAX_ANSWER_BYTES + 1);
    loop {
        line.clear();
        // At most one byte over the limit, so a bot that never sends a newline
        // cannot make the referee buffer without end.
        let mut limited = (&mut stdout).take(MAX_ANSWER_BYTES as u64 + 1);
        let message = match limited.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => Arrival::Eof(Instant::now()),
            Ok(n) if n > MAX_ANSWER_BYTES || !line.ends_with(b"\n") => {
                if line.len() > MAX_ANSWER_BYTES {
                    Arrival::TooLong(Instant::now())
                } else {
                    // Output ended without a newline.
                    Arrival::Eof(Instant::now())
                }
            }
            Ok(_) => Arrival::Line(
                String::from_utf8_lossy(&line).trim_end().to_string(),
                Instant::now(),
            ),
        };
        let last = !matches!(message, Arrival::Line(..));
        if tx.send(message).is_err() || last {
            return;
        }
    }
}

impl Bot {
    pub(super) fn start(command: &str) -> std::io::Result<Bot> {
        // In its own process group, so that the children a bot starts (a shell
        // script's `sleep`, say) are killed with it and cannot hold our pipes.
        // A bot's stderr is the user's to read.
        let mut spawn = lockstep_process::command(command);
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
    pub(super) fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        }
    }

    pub(super) fn remaining(&self) -> Duration {
        Duration::from_millis(TIME_BUDGET_MS).saturating_sub(self.used)
    }

    /// Waits for the answer to `asked`, sent at `sent`, charging the time.
    pub(super) fn answer(&mut self, asked: &str, sent: Instant) -> Result<String, BotFault> {
        let timeout = || {
            BotFault::new(
                FaultKind::Timeout,
                format!(
                    "ran out of time ({TIME_BUDGET_MS} ms in all) before answering {}",
                    what_was_asked(asked)
                ),
            )
        };
        let deadline = sent + self.remaining();
        let wait = deadline.saturating_duration_since(Instant::now());
        let message = match self.answers.recv_timeout(wait) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => {
                self.used = Duration::from_millis(TIME_BUDGET_MS);
                return Err(timeout());
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(BotFault::new(FaultKind::Crash, "crashed"))
            }
        };
        let at = match &message {
            Arrival::Line(_, at) | Arrival::TooLong(at) | Arrival::Eof(at) => *at,
        };
        self.used += at.saturating_duration_since(sent);
        if self.used > Duration::from_millis(TIME_BUDGET_MS) {
            return Err(timeout());
        }
        match message {
            Arrival::Line(line, _) => Ok(line),
            Arrival::TooLong(_) => Err(BotFault::new(
                FaultKind::Protocol,
                format!("answered a line longer than {MAX_ANSWER_BYTES} bytes"),
            )),
            Arrival::Eof(_) => Err(BotFault::new(
                FaultKind::Crash,
                "crashed (its output ended)",
            )),
        }
    }

    /// Why a bot whose input is closed lost. A bot that flooded its output
    /// before it was asked anything is killed by the broken pipe once the
    /// reader gives up on its over-long line; the send then finds the input
    /// closed. The over-long line came first and is the cause, so a `TooLong`
    /// already read wins over the crash it led to.
    pub(super) fn closed_fault(&mut self) -> BotFault {
        while let Ok(message) = self.answers.try_recv() {
            if let Arrival::TooLong(_) = message {
                return BotFault::new(
                    FaultKind::Protocol,
                    format!("answered a line longer than {MAX_ANSWER_BYTES} bytes"),
                );
            }
        }
        BotFault::new(FaultKind::Crash, "crashed (its input is closed)")
    }

    pub(super) fn stop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.send("FINISH");
        }
        self.stdin = None;
        // A short grace period to exit on FINISH, shared with the relay of
        // `stress any --interactor` (lockstep_process::Program::stop_after).
        self.program.stop_after(Duration::from_millis(100));
    }
}

/// A line the referee sent, as a report names it: `READY FIRST`, or `the
/// TURN line of turn 12`.
fn what_was_asked(line: &str) -> String {
    let mut words = line.split_whitespace();
    match (words.next(), words.nth(1)) {
        (Some("TURN"), Some(turn)) => format!("the TURN line of turn {turn}"),
        _ => line.to_string(),
    }
}

/// Sends `lines` to both bots, then collects both answers.
pub(super) fn exchange(bots: &mut [Bot; 2], lines: [&str; 2]) -> [Result<String, BotFault>; 2] {
    let mut sent = [Instant::now(); 2];
    let mut ok = [true; 2];
    for p in 0..2 {
        sent[p] = Instant::now();
        ok[p] = bots[p].send(lines[p]);
    }
    let mut out = [Ok(String::new()), Ok(String::new())];
    for p in 0..2 {
        out[p] = if ok[p] {
            bots[p].answer(lines[p], sent[p])
        } else {
            Err(bots[p].closed_fault())
        };
    }
    out
}

#[cfg(test)]
mod tests;
