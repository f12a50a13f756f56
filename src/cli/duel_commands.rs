//! The duel commands: an interactive game has more to it than a judge input
//! and output (step lines, the referee, bots, tournaments, the ladder).

use super::*;

pub(super) fn duel(command: DuelCommand) -> Result<i32> {
    use crate::duel::{bots, referee, tournament};
    use crate::seeds::SplitMix64;
    match command {
        DuelCommand::Step { reference } => duel_step(reference),
        DuelCommand::Stress {
            cmd,
            games,
            seconds,
            startup_ms,
            seed,
            jobs,
            save,
        } => {
            let startup = crate::process::Limits {
                time: std::time::Duration::from_millis(startup_ms.unwrap_or(2000)),
                output: crate::process::DEFAULT_OUTPUT_LIMIT,
            };
            if let Err(message) = crate::stress::check_command(&cmd, startup) {
                bail!("{message}");
            }
            let options = crate::duel::stress::DuelStressOptions {
                cmd,
                max_games: games,
                seconds: seconds.unwrap_or(if games.is_some() { f64::INFINITY } else { 30.0 }),
                seed: seed.unwrap_or_else(fresh_seed),
                jobs: jobs.unwrap_or_else(default_jobs),
                progress: true,
            };
            let save = save.unwrap_or_else(|| PathBuf::from("lockstep-stress-duel.log"));
            stress_duel(&options, &save)
        }
        DuelCommand::Bot { strategy, seed } => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            bots::play(strategy, seed.unwrap_or_else(fresh_seed), stdin, stdout)?;
            Ok(0)
        }
        DuelCommand::Tournament {
            p1,
            p2,
            games,
            jobs,
            seed,
        } => {
            let seed = seed.unwrap_or_else(fresh_seed);
            errln!("lockstep duel tournament: seed {seed}");
            let options = tournament::TournamentOptions {
                commands: [p1, p2],
                games: games as usize,
                jobs,
                seed,
                progress: true,
            };
            let report = tournament::run(&options).context("starting the bots")?;
            out!("{}", report.summary(&options.commands));
            Ok(0)
        }
        DuelCommand::Ladder {
            cmds,
            strategies,
            games,
            jobs,
            seed,
        } => {
            let seed = seed.unwrap_or_else(fresh_seed);
            errln!("lockstep duel ladder: seed {seed} (repeat with --seed {seed})");
            let exe = std::env::current_exe()
                .context("finding the lockstep binary for the built-in bots")?;
            let exe = crate::process::quoted(&exe);
            let strategies = if strategies.is_empty() {
                bots::Strategy::ALL.to_vec()
            } else {
                strategies
            };
            let mut entries: Vec<(String, String)> = Vec::new();
            for s in strategies {
                if entries.iter().all(|(name, _)| name != s.name()) {
                    let cmd = format!("{exe} duel bot --strategy {} --seed {seed}", s.name());
                    entries.push((s.name().to_string(), cmd));
                }
            }
            for (name, cmd) in cmds {
                if entries.iter().any(|(taken, _)| *taken == name) {
                    bail!("--cmd {name}=...: the name {name:?} is taken");
                }
                entries.push((name, cmd));
            }
            if entries.len() < 2 {
                bail!("a ladder needs at least two bots");
            }
            let options = crate::duel::ladder::LadderOptions {
                bots: entries,
                games: games as usize,
                jobs,
                seed,
                progress: true,
            };
            let report = crate::duel::ladder::run(&options).context("starting the bots")?;
            out!("{}", report.table());
            Ok(0)
        }
        DuelCommand::Referee {
            p1,
            p2,
            seed,
            init,
            log,
            render,
        } => {
            let init = match init {
                Some(text) => {
                    // Read as the INIT line the bots will receive.
                    let init: crate::duel::protocol::Init = format!("INIT {text}")
                        .parse()
                        .ok()
                        .filter(|i: &crate::duel::protocol::Init| {
                            [i.spring, i.p1, i.p2]
                                .into_iter()
                                .all(lockstep_core::duel::inside)
                        })
                        .with_context(|| {
                            format!(
                                "--init {text:?}: expected six numbers 1..=7 (OR OC R1 C1 R2 C2)"
                            )
                        })?;
                    if init.p1 == init.p2 {
                        bail!("--init {text:?}: the players must start on different cells");
                    }
                    (init.spring, init.p1, init.p2)
                }
                None => {
                    let seed = seed.unwrap_or_else(fresh_seed);
                    errln!("lockstep duel referee: seed {seed}");
                    tournament::random_init(&mut SplitMix64::new(seed))
                }
            };
            let options = referee::RefereeOptions {
                commands: [p1, p2],
                init,
            };
            let mut sink: Box<dyn Write> = match &log {
                Some(path) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("creating {}", path.display()))?,
                )),
                None => Box::new(std::io::sink()),
            };
            let mut stdout = std::io::stdout();
            let board: Option<&mut dyn Write> = if render { Some(&mut stdout) } else { None };
            let report =
                referee::run_drawing(&options, &mut sink, board).context("starting the bots")?;
            sink.flush()?;
            let winner = match report.outcome {
                lockstep_core::duel::Outcome::Ended(w, _) => match w {
                    lockstep_core::duel::Winner::P1 => "p1 wins",
                    lockstep_core::duel::Winner::P2 => "p2 wins",
                    lockstep_core::duel::Winner::Draw => "draw",
                },
                lockstep_core::duel::Outcome::Ongoing => "unfinished",
            };
            outln!("result: {winner}");
            outln!("reason: {}", report.reason);
            outln!(
                "turns: {}; time used: p1 {} ms, p2 {} ms; referee overhead per turn: mean {:.1} us, max {:.1} us",
                report.turns,
                report.time_used_ms[0],
                report.time_used_ms[1],
                report.overhead_us.0,
                report.overhead_us.1
            );
            Ok(0)
        }
    }
}

/// `duel step`: one answer line for each step line, written as soon as the line
/// is read, so that a program can drive it line by line. A malformed line is
/// one error naming it (exit 2), after the answers to the lines before it.
pub(super) fn duel_step(reference: bool) -> Result<i32> {
    use std::io::BufRead;
    let entry = lookup("duel")?;
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut any = false;
    for (index, line) in stdin.lines().enumerate() {
        let line = line.context("reading stdin (step lines must be UTF-8 text)")?;
        if line.trim().is_empty() {
            continue;
        }
        any = true;
        match entry.solve(&line, reference) {
            Ok(answer) => {
                stdout.write_all(answer.as_bytes())?;
                stdout.flush()?;
            }
            Err(mut e) => {
                e.line = index + 1;
                errln!("error: {e}");
                return Ok(2);
            }
        }
    }
    if !any {
        // What the judge-format reader says of an empty input.
        if let Err(e) = entry.solve("", reference) {
            errln!("error: {e}");
            return Ok(2);
        }
    }
    Ok(0)
}
