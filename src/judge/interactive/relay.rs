//! The connection between an interactor and a solution, with lockstep in
//! the middle: each program's stdout is read by a pump thread that writes
//! it on to the other's stdin, so that every byte passes the relay. That
//! costs a copy per message, and buys three things a direct pipe cannot:
//! the transcript (each line, its speaker and its arrival time), the
//! solution's output bound (OLE as soon as it writes one byte too many),
//! and knowing when nothing is in flight, which deadlock detection needs.
//!
//! The main thread watches both programs ([`crate::process::Program`]: own
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
use crate::process::{group_state, GroupState, Program};
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
    Program::spawn(crate::process::command(cmd))
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
    let note = |text: String| {
        transcript
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note(start.elapsed(), &text)
    };
    let mut sol_end: Option<(SolutionEnd, Duration)> = None;
    let mut int_end: Option<InteractorEnd> = None;
    let mut interactor_first = false;
    // A sample of both groups with the activity it was taken at.
    let mut candidate: Option<(u64, [GroupState; 2], Instant)> = None;
    let mut last_look = Instant::now();
    let mut pause = Duration::from_micros(20);
    // CPU time read so far: the solution's, and the interactor's (with its
    // figure when the solution ended).
    let (mut sol_cpu, mut int_cpu, mut int_cpu_at_end) =
        (Duration::ZERO, Duration::ZERO, None::<Duration>);
    let mut next_cpu_read = Duration::ZERO;
    loop {
        let now = start.elapsed();
        if now >= next_cpu_read {
            next_cpu_read = now + CPU_POLL;
            if let Some(cpu) = crate::process::cpu_time(sol.program.id()) {
                sol_cpu = sol_cpu.max(cpu);
            }
            if let Some(cpu) = crate::process::cpu_time(int.program.id()) {
                int_cpu = int_cpu.max(cpu);
            }
        }
        if sol.flow.over.load(Ordering::SeqCst) {
            sol_end = Some((SolutionEnd::OutputLimit, now));
        }
        if sol_end.is_none() {
            if let Some(status) = sol.program.try_wait()? {
                note(format!(
                    "the solution exited: {}",
                    crate::judge::describe_status(status)
                ));
                sol_end = Some((SolutionEnd::Exited(status), now));
            }
        }
        if int.flow.over.load(Ordering::SeqCst) {
            int_end = Some(InteractorEnd::OutputLimit);
        }
        if int_end.is_none() {
            if let Some(status) = int.program.try_wait()? {
                note(format!(
                    "the interactor exited: {}",
                    crate::judge::describe_status(status)
                ));
                interactor_first |= sol_end.is_none();
                int_end = Some(InteractorEnd::Exited(status));
            }
        }
        match (&sol_end, &int_end) {
            (Some(_), Some(_)) => break,
            (Some((SolutionEnd::OutputLimit, _)), None) => {
                int_end = Some(InteractorEnd::Killed);
                break;
            }
            (None, Some(InteractorEnd::Exited(status))) if status.success() => {
                // The interactor accepts: the solution may still fail by
                // its exit, or by not exiting within its limits.
                if sol_cpu > limits.solution_time {
                    sol_end = Some((SolutionEnd::TimeLimit, now));
                    break;
                }
                if now >= limits.solution_wall {
                    sol_end = Some((SolutionEnd::WallLimit, now));
                    break;
                }
            }
            (None, Some(_)) => {
                sol_end = Some((SolutionEnd::Killed, now));
                break;
            }
            (Some((_, ended)), None) => {
                let at_end = *int_cpu_at_end.get_or_insert(int_cpu);
                let spent = int_cpu.saturating_sub(at_end);
                let waited = now.saturating_sub(*ended);
                if spent > limits.interactor_time
                    || waited >= limits.interactor_time.saturating_mul(10)
                {
                    int_end = Some(InteractorEnd::Hung(format!(
                        "still running after the solution ended: {} ms of CPU time and {} ms of wall time since (its limit {} ms of CPU time)",
                        spent.as_millis(),
                        waited.as_millis(),
                        limits.interactor_time.as_millis()
                    )));
                    break;
                }
            }
            (None, None) => {
                if sol_cpu > limits.solution_time {
                    note(format!(
                        "the solution spent more than its {} ms of CPU time: killed",
                        limits.solution_time.as_millis()
                    ));
                    sol_end = Some((SolutionEnd::TimeLimit, now));
                    int_end = Some(InteractorEnd::Killed);
                    break;
                }
                if now >= limits.solution_wall {
                    // Who is stuck: a solution asleep reading while the
                    // interactor is not waits for an answer that is late.
                    let (s, i) = (group_state(sol.program.id()), group_state(int.program.id()));
                    if s.blocked_reading() && !i.blocked_reading() {
                        int_end = Some(InteractorEnd::Hung(format!(
                            "it had not answered the solution, which waited to read, when the solution's {} ms of wall time were up",
                            limits.solution_wall.as_millis()
                        )));
                        sol_end = Some((SolutionEnd::Killed, now));
                    } else {
                        note(format!(
                            "the solution is still running at its wall-time limit ({} ms), having spent {} ms of CPU time: killed",
                            limits.solution_wall.as_millis(),
                            sol_cpu.as_millis()
                        ));
                        sol_end = Some((SolutionEnd::WallLimit, now));
                        int_end = Some(InteractorEnd::Killed);
                    }
                    break;
                }
                let last = Duration::from_nanos(activity.load(Ordering::SeqCst));
                // Before a first message both may still be starting (see
                // docs/decisions.md); reading first on both sides is a TLE.
                let started = !last.is_zero();
                if started
                    && now.saturating_sub(last) >= QUIET
                    && last_look.elapsed() >= CONFIRM / 2
                {
                    last_look = Instant::now();
                    let marker = activity.load(Ordering::SeqCst);
                    let states = [group_state(sol.program.id()), group_state(int.program.id())];
                    let blocked = states.iter().all(GroupState::blocked_reading)
                        && !in_flight(&sol.flow)
                        && !in_flight(&int.flow);
                    let same = |c: &(u64, [GroupState; 2], Instant)| {
                        blocked
                            && c.0 == marker
                            && c.1
                                .iter()
                                .zip(&states)
                                .all(|(a, b)| a.cpu_ticks == b.cpu_ticks)
                    };
                    match candidate {
                        Some(c) if same(&c) => {
                            if c.2.elapsed() >= CONFIRM {
                                let waited = now.saturating_sub(last);
                                note(format!(
                                    "deadlock: both programs wait to read, nothing said for {} ms: the solution is killed",
                                    waited.as_millis()
                                ));
                                sol_end = Some((SolutionEnd::Deadlock(waited), now));
                                int_end = Some(InteractorEnd::Killed);
                                break;
                            }
                        }
                        _ => candidate = blocked.then(|| (marker, states, Instant::now())),
                    }
                }
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
    // Both seen gone in one look: whose output ended first is who ended
    // first (each pump marks its end before it closes the other's input,
    // so an exit at that end of file comes later on the same clock).
    let ended = |side: &Side| match side.flow.ended_at.load(Ordering::SeqCst) {
        0 => u64::MAX,
        at => at,
    };
    if matches!(int_end, Some(InteractorEnd::Exited(_))) && ended(int) < ended(sol) {
        interactor_first = true;
    }
    let (solution, _) = sol_end.expect("set before the loop ends");
    let interactor = int_end.expect("set before the loop ends");
    Ok((solution, interactor, interactor_first))
}
