//! The transcript of one interaction: who said what, in order, with the time
//! each line reached the relay. It is bounded in memory whatever the
//! programs write: the first [`HEAD`] and last [`TAIL`] entries are kept
//! (with a count of those elided between), and each kept line is clipped to
//! [`LINE_KEPT`] bytes. The whole transcript, when asked for, is streamed to
//! a file as the interaction goes instead of being held, so a long or
//! flooding run costs disk, bounded by the output limits, not memory.

use std::collections::VecDeque;
use std::io::Write;
use std::time::Duration;

/// Entries kept from the start of an interaction.
pub const HEAD: usize = 40;
/// Entries kept from its end.
pub const TAIL: usize = 40;
/// Bytes of one line kept in memory (the file gets it whole).
pub const LINE_KEPT: usize = 200;

/// Who an entry is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    Solution,
    Interactor,
    /// The relay itself: an output ended, a program exited or was killed.
    Relay,
}

impl Speaker {
    fn label(self) -> &'static str {
        match self {
            Speaker::Solution => "sol",
            Speaker::Interactor => "int",
            Speaker::Relay => "---",
        }
    }
}

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Since the interaction started.
    pub at: Duration,
    pub speaker: Speaker,
    /// The line without its newline, clipped to [`LINE_KEPT`] bytes.
    pub text: String,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:>9.3} ms  {}  {}",
            self.at.as_secs_f64() * 1e3,
            self.speaker.label(),
            self.text
        )
    }
}

/// A bounded transcript, optionally streamed whole to a file.
#[derive(Debug, Default)]
pub struct Transcript {
    head: Vec<Entry>,
    tail: VecDeque<Entry>,
    /// Entries dropped between the head and the tail.
    elided: usize,
    /// Lines said by the solution and the interactor (the relay's own notes
    /// aside): the transcript's length in the report.
    pub lines: usize,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl Clone for Transcript {
    /// The entries only: the file is the original's.
    fn clone(&self) -> Transcript {
        Transcript {
            head: self.head.clone(),
            tail: self.tail.clone(),
            elided: self.elided,
            lines: self.lines,
            file: None,
        }
    }
}

impl Transcript {
    /// A transcript that also writes every entry, unclipped, to `file`.
    pub fn streamed_to(file: std::fs::File) -> Transcript {
        Transcript {
            file: Some(std::io::BufWriter::new(file)),
            ..Transcript::default()
        }
    }

    /// Adds one line (its bytes, without the newline).
    pub fn say(&mut self, at: Duration, speaker: Speaker, line: &[u8]) {
        if let Some(file) = &mut self.file {
            // Best effort: a full disk must not change the verdict.
            let whole = Entry {
                at,
                speaker,
                text: String::from_utf8_lossy(line).into_owned(),
            };
            let _ = writeln!(file, "{whole}");
        }
        if speaker != Speaker::Relay {
            self.lines += 1;
        }
        let text = if line.len() > LINE_KEPT {
            format!(
                "{}... ({} bytes in all)",
                String::from_utf8_lossy(&line[..LINE_KEPT]),
                line.len()
            )
        } else {
            String::from_utf8_lossy(line).into_owned()
        };
        let entry = Entry { at, speaker, text };
        if self.head.len() < HEAD {
            self.head.push(entry);
            return;
        }
        self.tail.push_back(entry);
        if self.tail.len() > TAIL {
            self.tail.pop_front();
            self.elided += 1;
        }
    }

    /// A note of the relay's own (an output ended, a program exited).
    pub fn note(&mut self, at: Duration, note: &str) {
        self.say(at, Speaker::Relay, note.as_bytes());
    }

    /// Flushes the file, if there is one.
    pub fn finish(&mut self) {
        if let Some(file) = &mut self.file {
            let _ = file.flush();
        }
        self.file = None;
    }

    /// Every kept entry, in order, with `None` where entries were elided.
    pub fn entries(&self) -> impl Iterator<Item = Option<&Entry>> {
        let gap = (self.elided > 0).then_some(None);
        self.head
            .iter()
            .map(Some)
            .chain(gap)
            .chain(self.tail.iter().map(Some))
    }

    /// The last line the solution said, if one is kept.
    pub fn last_from(&self, speaker: Speaker) -> Option<&Entry> {
        self.tail
            .iter()
            .rev()
            .chain(self.head.iter().rev())
            .find(|e| e.speaker == speaker)
    }

    /// The transcript as a report prints it: at most `first` entries from the
    /// start and `last` from the end, one per line, indented, with how many
    /// were left out between.
    pub fn shortened(&self, first: usize, last: usize) -> String {
        let kept: Vec<Option<&Entry>> = self.entries().collect();
        let total = self.head.len() + self.tail.len() + self.elided;
        let mut out = String::new();
        let show = |out: &mut String, e: &Option<&Entry>| {
            if let Some(e) = e {
                out.push_str(&format!("    {e}\n"));
            }
        };
        if kept.len() <= first + last {
            if self.elided > 0 {
                for e in &kept {
                    match e {
                        Some(_) => show(&mut out, e),
                        None => {
                            out.push_str(&format!("    ... {} entries left out ...\n", self.elided))
                        }
                    }
                }
            } else {
                kept.iter().for_each(|e| show(&mut out, e));
            }
            return out;
        }
        kept[..first].iter().for_each(|e| show(&mut out, e));
        let shown = first + last;
        out.push_str(&format!(
            "    ... {} entries left out ...\n",
            total.saturating_sub(shown)
        ));
        kept[kept.len() - last..]
            .iter()
            .for_each(|e| show(&mut out, e));
        out
    }
}

#[cfg(test)]
mod tests;
