//! The connection between an interactor and a solution, with lockstep in
//! the middle: each program's stdout is read by a pump thread that writes
//! it on to the other's stdin, so that every byte passes the relay. That
//! costs a copy per message, and buys three things a direct pipe cannot:
//! the transcript (each line, its speaker and its arrival time), the
//! solution's output bound (OLE as soon as it writes one byte too many),
//! and knowing when nothing is in flight, which deadlock detection needs.
//!
//! The main thread watches both programs ([`lockstep_process::Program`]: own
//! process groups, reaped and swept on every path) and ends the interaction
//! by these rules, the referee's for both programs:
//!
//! - the solution has a CPU time limit: more CPU spent (user and system) is
//!   TLE. Time it spends waiting for the interactor is no CPU, so a slow
//!   interactor or a busy machine never counts against it;
//! - the solution has a wall-clock limit from its start, a backstop for a
//!   program that waits: still running at it is ILE, unless it is asleep
//!   reading while the interactor is not, which is the interactor hanging;
//! - a deadlock, both asleep in a pipe read with nothing relayed and no CPU
//!   spent for [`QUIET`] and then [`CONFIRM`] more, after at least one
//!   message was relayed, is the solution's TLE, named, found at once
//!   instead of at the time limit;
//! - the interactor has its own time after the solution ends, CPU time
//!   with ten times as much wall time as a backstop; past either, it hangs
//!   (the tool's failure, not the solution's);
//! - an interactor that exits with a verdict other than OK ends the
//!   interaction: the solution is killed, its verdict decided;
//! - when one program's output ends, the other's input is closed, so a
//!   solution that exits early shows the interactor an end of file.

use super::pump::{in_flight, pump, stderr_tail, Flow, STDERR_KEPT};
use super::transcript::{Speaker, Transcript};
use lockstep_process::{group_state, GroupState, Program};
use std::process::ExitStatus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Nothing relayed for this long makes the relay look at both programs.
pub const QUIET: Duration = Duration::from_millis(200);
/// Both seen blocked reading, with no CPU spent, this long apart: a deadlock.
pub const CONFIRM: Duration = Duration::from_millis(300);

/// How often the relay reads both programs' CPU time.
const CPU_POLL: Duration = Duration::from_millis(5);

/// The limits of one interaction.
#[derive(Debug, Clone, Copy)]
pub struct RelayResources {
    /// The solution's CPU time (user and system).
    pub solution_time: Duration,
    /// The solution's wall time from its start.
    pub solution_wall: Duration,
    /// Bytes the solution may write; one more is OLE.
    pub solution_output: usize,
    /// The interactor's CPU time once the solution has ended (and ten times
    /// as much wall time).
    pub interactor_time: Duration,
    /// Bytes the interactor may write; more is its failure.
    pub interactor_output: usize,
}

/// How the solution's side ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolutionEnd {
    Exited(ExitStatus),
    /// Spent more CPU time than its limit.
    TimeLimit,
    /// Still running at its wall-time limit, not waiting for the
    /// interactor.
    WallLimit,
    /// Both programs waited to read, for this long: the solution's TLE.
    Deadlock(Duration),
    OutputLimit,
    /// Still running when the interactor's verdict (or failure) ended the
    /// interaction.
    Killed,
}

/// How the interactor's side ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorEnd {
    Exited(ExitStatus),
    /// It hung: the words say how.
    Hung(String),
    OutputLimit,
    /// Killed because the solution's verdict (TLE, OLE) ended the interaction.
    Killed,
}

/// One interaction, as it ended.
#[derive(Debug, Clone)]
pub struct Interaction {
    pub solution: SolutionEnd,
    pub interactor: InteractorEnd,
    /// The interactor ended first: its output had ended (it exits, as a
    /// rule) before the solution's end was seen, so whatever the solution
    /// did at its closed input came after the interactor's verdict.
    pub interactor_first: bool,
    pub solution_stderr: String,
    pub interactor_stderr: String,
    pub transcript: Transcript,
    pub elapsed: Duration,
}

/// A started program's pipes handed to threads; what they fill.
struct Side {
    program: Program,
    flow: Arc<Flow>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

fn start(cmd: &str) -> std::io::Result<Program> {
    Program::spawn(lockstep_process::command(cmd))
        .map_err(|e| std::io::Error::new(e.kind(), format!("{cmd:?}: {e}")))
}

/// Runs one interaction of `interactor` (a full command line, its file
/// arguments included) and `solution`. `transcript` receives every line
/// (it may stream to a file). An error only when a program cannot start.
pub fn interact(
    interactor: &str,
    solution: &str,
    limits: RelayResources,
    transcript: Transcript,
) -> std::io::Result<Interaction> {
    let transcript = Arc::new(Mutex::new(transcript));
    let activity = Arc::new(AtomicU64::new(0));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut int = start(interactor)?;
    let mut sol = start(solution)?;
    let start = Instant::now();
    let mut sides = Vec::new();
    let (int_in, sol_in) = (
        int.child_mut().stdin.take().expect("piped"),
        sol.child_mut().stdin.take().expect("piped"),
    );
    let mut ins = [Some(sol_in), Some(int_in)];
    for (i, (mut program, speaker, cap)) in [
        (int, Speaker::Interactor, limits.interactor_output),
        (sol, Speaker::Solution, limits.solution_output),
    ]
    .into_iter()
    .enumerate()
    {
        let flow = Arc::new(Flow::default());
        if let Some(out) = &program.child_mut().stdout {
            flow.fd
                .store(std::os::fd::AsRawFd::as_raw_fd(out), Ordering::SeqCst);
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let child = program.child_mut();
        let (stdout, err) = (
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        );
        // The interactor's output goes to the solution's input, and back.
        let to = ins[i].take();
        let (t, a, f, d) = (
            Arc::clone(&transcript),
            Arc::clone(&activity),
            Arc::clone(&flow),
            done_tx.clone(),
        );
        std::thread::spawn(move || {
            pump(stdout, to, speaker, cap, start, t, a, f);
            let _ = d.send(());
        });
        let (s, d) = (Arc::clone(&stderr), done_tx.clone());
        std::thread::spawn(move || {
            stderr_tail(err, s);
            let _ = d.send(());
        });
        sides.push(Side {
            program,
            flow,
            stderr,
        });
    }
    drop(done_tx);
    let [mut int, mut sol]: [Side; 2] = match sides.try_into() {
        Ok(sides) => sides,
        Err(_) => unreachable!("two sides were started"),
    };
    let ends = watch(&mut int, &mut sol, limits, start, &activity, &transcript);
    let elapsed = start.elapsed();
    int.program.stop();
    sol.program.stop();
    // Both groups are killed and swept: the pipes close. Something outside
    // our reach that holds one must not hold the run.
    for _ in 0..4 {
        if done_rx.recv_timeout(Duration::from_secs(1)).is_err() {
            break;
        }
    }
    let (solution, interactor, interactor_first) = ends?;
    let text = |kept: &Arc<Mutex<Vec<u8>>>| {
        let kept = kept.lock().unwrap_or_else(|e| e.into_inner());
        let from = kept.len().saturating_sub(STDERR_KEPT);
        String::from_utf8_lossy(&kept[from..]).into_owned()
    };
    let mut transcript = std::mem::take(&mut *transcript.lock().unwrap_or_else(|e| e.into_inner()));
    transcript.finish();
    Ok(Interaction {
        solution,
        interactor,
        interactor_first,
        solution_stderr: text(&sol.stderr),
        interactor_stderr: text(&int.stderr),
        transcript,
        elapsed,
    })
}

/// The main thread's watch over both programs until the interaction ends.
fn watch(
    int: &mut Side,
    sol: &mut Side,
    limits: RelayResources,
    start: Instant,
    activity: &AtomicU64,
    transcript: &Mutex<Transcript>,
) -> std::io::Result<(SolutionEnd, InteractorEnd, bool)> {
    let mut watch = Watch {
        int,
        sol,
        limits,
        start,
        activity,
        transcript,
        sol_end: None,
        int_end: None,
        interactor_first: false,
        candidate: None,
        last_look: Instant::now(),
        sol_cpu: Duration::ZERO,
        int_cpu: Duration::ZERO,
        int_cpu_at_end: None,
        next_cpu_read: Duration::ZERO,
    };
    let mut pause = Duration::from_micros(20);
    loop {
        let now = start.elapsed();
        watch.read_cpu(now);
        watch.see_ends(now)?;
        if watch.decided(now) {
            return Ok(watch.ends());
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// A sample of both groups with the activity it was taken at, and when.
type Sample = (u64, [GroupState; 2], Instant);

/// What the watch knows while both programs run.
struct Watch<'a> {
    int: &'a mut Side,
    sol: &'a mut Side,
    limits: RelayResources,
    start: Instant,
    activity: &'a AtomicU64,
    transcript: &'a Mutex<Transcript>,
    sol_end: Option<(SolutionEnd, Duration)>,
    int_end: Option<InteractorEnd>,
    interactor_first: bool,
    /// Both seen blocked reading: the deadlock's first look.
    candidate: Option<Sample>,
    last_look: Instant,
    /// CPU time read so far: the solution's, and the interactor's (with its
    /// figure when the solution ended).
    sol_cpu: Duration,
    int_cpu: Duration,
    int_cpu_at_end: Option<Duration>,
    next_cpu_read: Duration,
}

impl Watch<'_> {
    fn note(&self, text: &str) {
        self.transcript
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note(self.start.elapsed(), text);
    }

    /// Both programs' CPU time, every [`CPU_POLL`].
    fn read_cpu(&mut self, now: Duration) {
        if now < self.next_cpu_read {
            return;
        }
        self.next_cpu_read = now + CPU_POLL;
        if let Some(cpu) = lockstep_process::cpu_time(self.sol.program.id()) {
            self.sol_cpu = self.sol_cpu.max(cpu);
        }
        if let Some(cpu) = lockstep_process::cpu_time(self.int.program.id()) {
            self.int_cpu = self.int_cpu.max(cpu);
        }
    }

    /// An output past its bound, or an exit, of either program.
    fn see_ends(&mut self, now: Duration) -> std::io::Result<()> {
        if self.sol.flow.over.load(Ordering::SeqCst) {
            self.sol_end = Some((SolutionEnd::OutputLimit, now));
        }
        if self.sol_end.is_none() {
            if let Some(status) = self.sol.program.try_wait()? {
                self.note(&format!(
                    "the solution exited: {}",
                    crate::describe_status(status)
                ));
                self.sol_end = Some((SolutionEnd::Exited(status), now));
            }
        }
        if self.int.flow.over.load(Ordering::SeqCst) {
            self.int_end = Some(InteractorEnd::OutputLimit);
        }
        if self.int_end.is_none() {
            if let Some(status) = self.int.program.try_wait()? {
                self.note(&format!(
                    "the interactor exited: {}",
                    crate::describe_status(status)
                ));
                self.interactor_first |= self.sol_end.is_none();
                self.int_end = Some(InteractorEnd::Exited(status));
            }
        }
        Ok(())
    }

    /// Whether the interaction has ended, by the rules of the module's
    /// docs; when it has, both ends are set.
    fn decided(&mut self, now: Duration) -> bool {
        let limits = self.limits;
        match (&self.sol_end, &self.int_end) {
            (Some(_), Some(_)) => true,
            (Some((SolutionEnd::OutputLimit, _)), None) => {
                self.int_end = Some(InteractorEnd::Killed);
                true
            }
            (None, Some(InteractorEnd::Exited(status))) if status.success() => {
                // The interactor accepts: the solution may still fail by
                // its exit, or by not exiting within its limits.
                if self.sol_cpu > limits.solution_time {
                    self.sol_end = Some((SolutionEnd::TimeLimit, now));
                    return true;
                }
                if now >= limits.solution_wall {
                    self.sol_end = Some((SolutionEnd::WallLimit, now));
                    return true;
                }
                false
            }
            (None, Some(_)) => {
                self.sol_end = Some((SolutionEnd::Killed, now));
                true
            }
            (Some((_, ended)), None) => {
                let ended = *ended;
                self.interactor_after(now, ended)
            }
            (None, None) => self.both_running(now),
        }
    }

    /// The solution ended at `ended` and the interactor runs on: it hangs
    /// past its own time.
    fn interactor_after(&mut self, now: Duration, ended: Duration) -> bool {
        let limits = self.limits;
        let at_end = *self.int_cpu_at_end.get_or_insert(self.int_cpu);
        let spent = self.int_cpu.saturating_sub(at_end);
        let waited = now.saturating_sub(ended);
        if spent > limits.interactor_time || waited >= limits.interactor_time.saturating_mul(10) {
            self.int_end = Some(InteractorEnd::Hung(format!(
                "still running after the solution ended: {} ms of CPU time and {} ms of wall time since (its limit {} ms of CPU time)",
                spent.as_millis(),
                waited.as_millis(),
                limits.interactor_time.as_millis()
            )));
            return true;
        }
        false
    }

    /// Both run: the solution's time and wall-time limits, then a deadlock.
    fn both_running(&mut self, now: Duration) -> bool {
        let limits = self.limits;
        if self.sol_cpu > limits.solution_time {
            self.note(&format!(
                "the solution spent more than its {} ms of CPU time: killed",
                limits.solution_time.as_millis()
            ));
            self.sol_end = Some((SolutionEnd::TimeLimit, now));
            self.int_end = Some(InteractorEnd::Killed);
            return true;
        }
        if now >= limits.solution_wall {
            // Who is stuck: a solution asleep reading while the
            // interactor is not waits for an answer that is late.
            let (s, i) = (
                group_state(self.sol.program.id()),
                group_state(self.int.program.id()),
            );
            if s.blocked_reading() && !i.blocked_reading() {
                self.int_end = Some(InteractorEnd::Hung(format!(
                    "it had not answered the solution, which waited to read, when the solution's {} ms of wall time were up",
                    limits.solution_wall.as_millis()
                )));
                self.sol_end = Some((SolutionEnd::Killed, now));
            } else {
                self.note(&format!(
                    "the solution is still running at its wall-time limit ({} ms), having spent {} ms of CPU time: killed",
                    limits.solution_wall.as_millis(),
                    self.sol_cpu.as_millis()
                ));
                self.sol_end = Some((SolutionEnd::WallLimit, now));
                self.int_end = Some(InteractorEnd::Killed);
            }
            return true;
        }
        self.deadlocked(now)
    }

    /// Both asleep in a pipe read with nothing in flight, nothing relayed
    /// and no CPU spent, [`QUIET`] after the last message and again
    /// [`CONFIRM`] later: the solution's TLE.
    fn deadlocked(&mut self, now: Duration) -> bool {
        let last = Duration::from_nanos(self.activity.load(Ordering::SeqCst));
        // Before a first message both may still be starting (see
        // docs/decisions.md); reading first on both sides is a TLE.
        let started = !last.is_zero();
        if !started || now.saturating_sub(last) < QUIET || self.last_look.elapsed() < CONFIRM / 2 {
            return false;
        }
        self.last_look = Instant::now();
        let marker = self.activity.load(Ordering::SeqCst);
        let states = [
            group_state(self.sol.program.id()),
            group_state(self.int.program.id()),
        ];
        let blocked = states.iter().all(GroupState::blocked_reading)
            && !in_flight(&self.sol.flow)
            && !in_flight(&self.int.flow);
        let same = |c: &Sample| {
            blocked
                && c.0 == marker
                && c.1
                    .iter()
                    .zip(&states)
                    .all(|(a, b)| a.cpu_ticks == b.cpu_ticks)
        };
        match self.candidate {
            Some(c) if same(&c) => {
                if c.2.elapsed() >= CONFIRM {
                    let waited = now.saturating_sub(last);
                    self.note(&format!(
                        "deadlock: both programs wait to read, nothing said for {} ms: the solution is killed",
                        waited.as_millis()
                    ));
                    self.sol_end = Some((SolutionEnd::Deadlock(waited), now));
                    self.int_end = Some(InteractorEnd::Killed);
                    return true;
                }
            }
            _ => self.candidate = blocked.then(|| (marker, states, Instant::now())),
        }
        false
    }

    /// Both ends, once decided. Both seen gone in one look: whose output
    /// ended first is who ended first (each pump marks its end before it
    /// closes the other's input, so an exit at that end of file comes
    /// later on the same clock).
    fn ends(self) -> (SolutionEnd, InteractorEnd, bool) {
        let ended = |side: &Side| match side.flow.ended_at.load(Ordering::SeqCst) {
            0 => u64::MAX,
            at => at,
        };
        let mut interactor_first = self.interactor_first;
        if matches!(self.int_end, Some(InteractorEnd::Exited(_)))
            && ended(self.int) < ended(self.sol)
        {
            interactor_first = true;
        }
        let (solution, _) = self.sol_end.expect("set before the watch ends");
        let interactor = self.int_end.expect("set before the watch ends");
        (solution, interactor, interactor_first)
    }
}
