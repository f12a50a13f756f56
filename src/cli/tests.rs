use super::Cli;
use clap::CommandFactory;

/// Every option and argument of every command says what it is for.
#[test]
fn every_argument_has_a_help_line() {
    fn check(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if arg
                .get_help()
                .is_none_or(|h| h.to_string().trim().is_empty())
            {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in command.get_subcommands() {
            if sub.get_about().is_none() && sub.get_name() != "help" {
                missing.push(format!("{path} {} (the command)", sub.get_name()));
            }
            check(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }
    let mut missing = Vec::new();
    check(&Cli::command(), "lockstep", &mut missing);
    assert!(missing.is_empty(), "no help: {missing:?}");
    Cli::command().debug_assert();
}

/// No help page lists a flag its command does not take: `stress` shows
/// the puzzle flags only, `stress any` the any-problem flags only.
#[test]
fn each_stress_help_page_shows_only_its_own_flags() {
    let cli = Cli::command();
    let stress = cli.find_subcommand("stress").expect("stress");
    let ids = |c: &clap::Command| -> Vec<String> {
        c.get_arguments().map(|a| a.get_id().to_string()).collect()
    };
    let puzzle = ids(stress);
    let any = ids(stress.find_subcommand("any").expect("stress any"));
    for flag in ["gen", "brute", "checker", "validator", "tool_timeout_ms"] {
        assert!(!puzzle.iter().any(|id| id == flag), "stress shows --{flag}");
        assert!(any.iter().any(|id| id == flag), "stress any lacks --{flag}");
    }
    for flag in ["puzzle", "oracle", "limits", "corpus", "no_append"] {
        assert!(!any.iter().any(|id| id == flag), "stress any shows {flag}");
        assert!(puzzle.iter().any(|id| id == flag), "stress lacks {flag}");
    }
}
