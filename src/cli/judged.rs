//! What every command that judges a program shares (`stress`, `stress
//! any`): the limits of each run (time, memory, output, start-up) and the
//! banner that says which are in force.

use super::values::{at_least_one, byte_size};
use crate::process::Limits;
use std::time::Duration;

/// How each run of the program under test is limited.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Limits per run")]
pub(super) struct RunLimits {
    /// Time limit per run of the program, in milliseconds.
    #[arg(long, default_value_t = 2000, value_parser = at_least_one)]
    timeout_ms: u64,
    /// Memory limit per run (bytes, or with K, M, G): more peak resident
    /// memory is MLE. Enforced by a cgroup v2 where lockstep can have one,
    /// else by RLIMIT_AS (a JVM by -Xmx and its resident size); the banner
    /// says which. Without it, memory is measured only.
    #[arg(long, value_parser = byte_size)]
    memory_limit: Option<usize>,
    /// Output limit per run: more is OLE and the program is killed at once
    /// (bytes, or with K, M, G).
    #[arg(long, default_value = "16M", value_parser = byte_size)]
    output_limit: usize,
    /// Time for the start-up check, in milliseconds: the program runs once on
    /// an empty input to show that it starts (default: its time limit).
    #[arg(long, value_parser = at_least_one)]
    startup_ms: Option<u64>,
}

impl RunLimits {
    /// The limits of one run of the program under test.
    pub(super) fn per_run(&self) -> Limits {
        Limits {
            time: Duration::from_millis(self.timeout_ms),
            output: self.output_limit,
            memory: self.memory_limit.map(|m| m as u64),
        }
    }

    /// The limits of the start-up check.
    pub(super) fn startup(&self) -> Limits {
        Limits {
            time: Duration::from_millis(self.startup_ms.unwrap_or(self.timeout_ms)),
            ..self.per_run()
        }
    }

    /// The start-up check of a tool (generator, brute force, validator,
    /// checker): the same time, no memory limit, which is the program under
    /// test's.
    pub(super) fn tool_startup(&self) -> Limits {
        Limits {
            memory: None,
            ..self.startup()
        }
    }

    /// `time limit 2000 ms, memory limit 256 MiB by RLIMIT_AS (...)`: what
    /// the banner says of the limits.
    pub(super) fn banner(&self) -> String {
        let memory = match self.memory_limit {
            Some(bytes) => format!(
                "memory limit {} by {}",
                crate::process::human_bytes(bytes as u64),
                crate::process::memory_guard()
            ),
            None => "memory measured, not limited".to_string(),
        };
        format!("time limit {} ms, {memory}", self.timeout_ms)
    }
}
