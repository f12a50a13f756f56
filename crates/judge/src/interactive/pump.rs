//! The relay's pumps: one thread per direction carries a program's output
//! to the other's input, line by line into the transcript, under a byte
//! cap; and the tests of what is in flight that deadlock detection needs.

use super::transcript::{Speaker, Transcript};
use std::io::{Read, Write};
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How much of each program's stderr is kept (its end).
pub(super) const STDERR_KEPT: usize = 16 << 10;
/// A line longer than this is cut into entries of this size in the
/// transcript, so that a flood without newlines is not held whole.
const PENDING_MAX: usize = 64 << 10;

/// What a pump shares with the main thread.
#[derive(Default)]
pub(super) struct Flow {
    pub(super) bytes: AtomicUsize,
    pub(super) over: AtomicBool,
    /// Between a read and the end of its write on: bytes in lockstep's hands.
    pub(super) carrying: AtomicBool,
    /// The read end of the program's stdout, to ask the kernel whether
    /// bytes wait in it (FIONREAD). Only asked while the program runs;
    /// should the number name another file by then, it can only say bytes
    /// wait, which delays a deadlock's detection and never invents one.
    pub(super) fd: AtomicI32,
    /// When the program's output ended (nanoseconds since the start, plus
    /// one; 0 while it has not): set before the other side's input is
    /// closed, so that whatever the other side did at its end of file
    /// comes after it on this clock.
    pub(super) ended_at: AtomicU64,
}

/// One direction of the relay: `from`'s bytes to `to`, line by line into
/// the transcript, until `from` ends or passes `cap` bytes.
#[allow(clippy::too_many_arguments)]
pub(super) fn pump(
    mut from: impl Read,
    mut to: Option<ChildStdin>,
    speaker: Speaker,
    cap: usize,
    start: Instant,
    transcript: Arc<Mutex<Transcript>>,
    activity: Arc<AtomicU64>,
    flow: Arc<Flow>,
) {
    let mut buf = vec![0u8; 64 << 10];
    let mut pending: Vec<u8> = Vec::new();
    let who = match speaker {
        Speaker::Solution => "solution",
        _ => "interactor",
    };
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        flow.carrying.store(true, Ordering::SeqCst);
        let at = start.elapsed();
        activity.store(at.as_nanos() as u64, Ordering::SeqCst);
        let before = flow.bytes.fetch_add(n, Ordering::SeqCst);
        // Past the cap, only the bytes under it are relayed and recorded.
        let allowed = cap.saturating_sub(before);
        let over = n > allowed;
        let n = n.min(allowed);
        let chunk = &buf[..n];
        {
            let mut t = transcript.lock().unwrap_or_else(|e| e.into_inner());
            let mut rest = chunk;
            while let Some(i) = rest.iter().position(|&b| b == b'\n') {
                pending.extend_from_slice(&rest[..i]);
                t.say(at, speaker, &pending);
                pending.clear();
                rest = &rest[i + 1..];
            }
            pending.extend_from_slice(rest);
            if pending.len() > PENDING_MAX {
                t.say(at, speaker, &pending);
                pending.clear();
            }
        }
        if let Some(w) = &mut to {
            // The other side closed its input (it exited): keep draining, so
            // that this side never blocks on a full pipe.
            if w.write_all(chunk).is_err() {
                to = None;
            }
        }
        // Written: the activity is the write's end, when the other side
        // can have it.
        activity.store(start.elapsed().as_nanos() as u64, Ordering::SeqCst);
        flow.carrying.store(false, Ordering::SeqCst);
        if over {
            flow.over.store(true, Ordering::SeqCst);
            let mut t = transcript.lock().unwrap_or_else(|e| e.into_inner());
            if !pending.is_empty() {
                t.say(at, speaker, &pending);
                pending.clear();
            }
            t.note(
                at,
                &format!("the {who} wrote more than {cap} bytes: cut off"),
            );
            return;
        }
    }
    let at = start.elapsed();
    let mut t = transcript.lock().unwrap_or_else(|e| e.into_inner());
    if !pending.is_empty() {
        t.say(at, speaker, &pending);
        t.note(at, &format!("(the {who}'s last line has no newline)"));
    }
    t.note(at, &format!("the {who}'s output ended"));
    flow.ended_at
        .store(start.elapsed().as_nanos() as u64 + 1, Ordering::SeqCst);
    // Dropping `to` closes the other side's input: it reads an end of file.
    drop(to);
}

/// Whether bytes are on their way through `flow`'s pump: read and not yet
/// written on, or waiting in the pipe for a pump thread not yet run (a
/// loaded machine). Either way the programs are not deadlocked.
pub(super) fn in_flight(flow: &Flow) -> bool {
    if flow.carrying.load(Ordering::SeqCst) {
        return true;
    }
    let mut waiting: nix::libc::c_int = 0;
    // Safety: FIONREAD writes one int through the pointer.
    let asked = unsafe {
        nix::libc::ioctl(
            flow.fd.load(Ordering::SeqCst),
            nix::libc::FIONREAD,
            &mut waiting,
        )
    };
    asked == 0 && waiting > 0
}

/// Keeps the end of a program's stderr.
pub(super) fn stderr_tail(mut from: impl Read, into: Arc<Mutex<Vec<u8>>>) {
    let mut buf = [0u8; 8 << 10];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let mut kept = into.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > 2 * STDERR_KEPT {
            let cut = kept.len() - STDERR_KEPT;
            kept.drain(..cut);
        }
    }
}
