//! The documentation held to the code and to itself:
//!
//! - every long flag of every `lockstep` command's `--help` (the commands
//!   read from the help itself, recursively) appears in that command's
//!   section of the guide's reference (`docs/guide/src/reference/`, a heading
//!   `` `lockstep COMMAND` ``), so the reference cannot drift from the binary;
//! - every relative link of README.md, ARCHITECTURE.md and every markdown
//!   file under docs/ (the guide's pages too) and corpus/ reaches a file, an
//!   `#anchor` into a markdown file reaches one of its headings, and every
//!   `{{#include}}` of the guide reaches its file.
//!
//! Each test reports every problem at once, and says how much it checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `lockstep WORDS --help`, as text.
fn help(words: &[String]) -> String {
    let out = crate::support::bin()
        .args(words)
        .arg("--help")
        .output()
        .expect("the lockstep binary runs");
    assert!(out.status.success(), "lockstep {words:?} --help failed");
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The subcommands a help text lists under `Commands:` (not `help`).
fn subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            // The section ends at the next unindented line.
            if !line.starts_with(' ') && !line.trim().is_empty() {
                break;
            }
            // A name is two spaces in; its description's wrapped lines are deeper.
            if let Some(rest) = line.strip_prefix("  ") {
                if !rest.starts_with(' ') {
                    if let Some(name) = rest.split_whitespace().next() {
                        if name != "help" {
                            names.push(name.to_string());
                        }
                    }
                }
            }
        }
    }
    names
}

/// The long flags a help text's option lines declare (`--help` and
/// `--version` aside): a line whose first word is `--flag` or `-x,`.
fn long_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        let declared = match line.strip_prefix('-') {
            Some(rest) if rest.starts_with('-') => line,
            // `-o, --out <FILE>`
            Some(rest) if rest.chars().nth(1) == Some(',') => rest[2..].trim_start(),
            _ => continue,
        };
        let flag: String = declared
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if flag.len() > 2 && flag != "--help" && flag != "--version" && !flags.contains(&flag) {
            flags.push(flag);
        }
    }
    flags
}

/// Every command of the binary (as its words after `lockstep`), found from
/// the top-level help down, with its help text.
fn commands() -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut queue = vec![Vec::new()];
    while let Some(words) = queue.pop() {
        let text = help(&words);
        for sub in subcommands(&text) {
            let mut longer = words.clone();
            longer.push(sub);
            queue.push(longer);
        }
        if !words.is_empty() {
            found.push((words, text));
        }
    }
    found.sort();
    found
}

/// The markdown files of the guide's reference.
fn reference_pages() -> Vec<PathBuf> {
    let dir = root().join("docs/guide/src/reference");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("docs/guide/src/reference")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The sections of a markdown text by heading: (level, heading text, the
/// text up to the next heading of the same or a higher level).
fn sections(text: &str) -> Vec<(usize, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let headings = headings_of(text);
    headings
        .iter()
        .enumerate()
        .map(|(i, (line, level, title))| {
            let end = headings[i + 1..]
                .iter()
                .find(|(_, l, _)| l <= level)
                .map_or(lines.len(), |(next, _, _)| *next);
            (*level, title.clone(), lines[*line..end].join("\n"))
        })
        .collect()
}

/// Whether `flag` stands in `text` as a whole flag (`--case`, not the start
/// of `--cases`).
fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let after = text[i + flag.len()..].chars().next();
        after.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
    })
}

#[test]
fn every_flag_of_every_command_is_in_the_guides_reference() {
    let commands = commands();
    let mut pages = String::new();
    for page in reference_pages() {
        pages.push_str(&std::fs::read_to_string(&page).expect("a page reads"));
        pages.push('\n');
    }
    let sections = sections(&pages);
    let mut missing = Vec::new();
    let mut checked = 0;
    let mut described = 0;
    for (words, text) in &commands {
        let name = format!("lockstep {}", words.join(" "));
        let flags = long_flags(text);
        let leaf = subcommands(text).is_empty();
        if flags.is_empty() && !leaf {
            continue; // a group (`lockstep duel`): its commands have the sections
        }
        let heading = format!("`{name}`");
        let Some((_, _, section)) = sections.iter().find(|(_, title, _)| *title == heading) else {
            missing.push(format!("{name}: no section headed {heading}"));
            continue;
        };
        described += 1;
        for flag in flags {
            checked += 1;
            if !mentions(section, &flag) {
                missing.push(format!("{name}: {flag}"));
            }
        }
    }
    println!(
        "checked {checked} flags of {described} commands ({} commands read from the help)",
        commands.len()
    );
    // Not vacuous: the commands and flags of this repository at least.
    assert!(commands.len() >= 20, "{} commands found", commands.len());
    assert!(checked >= 100, "{checked} flags found");
    assert!(
        missing.is_empty(),
        "{} of {checked} flags (or commands) are not in docs/guide/src/reference/ \
         under the command's heading:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// The markdown files whose links are checked.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![
        root().join("README.md"),
        root().join("ARCHITECTURE.md"),
        root().join("corpus/README.md"),
    ];
    files.extend(super::walk(&root().join("docs"), "md", &|_| true));
    files.sort();
    files
}

/// A text without its fenced code blocks (their lines left empty, so that
/// line numbers stay).
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return String::new();
            }
            if fenced {
                String::new()
            } else {
                line.to_string()
            }
        })
        .collect()
}

/// The headings of a markdown text: (line index, level, text).
fn headings_of(text: &str) -> Vec<(usize, usize, String)> {
    prose(text)
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let level = line.chars().take_while(|c| *c == '#').count();
            let rest = &line[level..];
            (level > 0 && level <= 6 && rest.starts_with(' ')).then(|| {
                (
                    i,
                    level,
                    rest.trim().trim_end_matches('#').trim().to_string(),
                )
            })
        })
        .collect()
}

/// A heading's anchor, as GitHub and mdBook make it: lower case, letters,
/// digits, `-` and `_` kept, spaces to `-`, the rest dropped.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The anchors of a markdown file: its headings', with `-1`, `-2` for
/// repeats; a page of the guide that includes another file has that file's.
fn anchors(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut text_with_includes = String::new();
    for line in text.lines() {
        match include_target(line) {
            Some(target) => {
                let included = path.parent().unwrap_or(root()).join(target);
                text_with_includes.push_str(&std::fs::read_to_string(included).unwrap_or_default());
            }
            None => text_with_includes.push_str(line),
        }
        text_with_includes.push('\n');
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    headings_of(&text_with_includes)
        .into_iter()
        .map(|(_, _, title)| {
            let base = slug(&title.replace('`', ""));
            let n = seen.entry(base.clone()).or_default();
            let anchor = if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            *n += 1;
            anchor
        })
        .collect()
}

/// The file an mdBook `{{#include FILE}}` line names.
fn include_target(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("{{#include ")?;
    Some(rest.strip_suffix("}}")?.split(':').next()?.trim())
}

/// The link targets of a line of prose: `[text](target)` and `![alt](target)`,
/// outside code spans; reference definitions `[x]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let outside_code: String = line
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 0 { part } else { "" })
        .collect::<Vec<_>>()
        .join("");
    let mut targets = Vec::new();
    let mut rest = outside_code.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &after[end..];
    }
    let trimmed = outside_code.trim_start();
    if trimmed.starts_with('[') {
        if let Some((_, target)) = trimmed.split_once("]: ") {
            targets.push(target.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    targets
}

#[test]
fn every_relative_link_of_the_docs_resolves() {
    let files = markdown_files();
    let mut problems = Vec::new();
    let mut links = 0;
    let mut anchored = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a markdown file reads");
        let shown = file
            .strip_prefix(root())
            .unwrap_or(file)
            .display()
            .to_string();
        let dir = file.parent().unwrap_or(root());
        for (n, line) in prose(&text).iter().enumerate() {
            if let Some(target) = include_target(line) {
                links += 1;
                if !dir.join(target).is_file() {
                    problems.push(format!(
                        "{shown}:{}: include of {target}: no such file",
                        n + 1
                    ));
                }
                continue;
            }
            for target in link_targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                links += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let resolved = if path.is_empty() {
                    file.clone()
                } else {
                    dir.join(path)
                };
                if !resolved.exists() {
                    problems.push(format!("{shown}:{}: {target}: no such file", n + 1));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if resolved.extension().is_some_and(|e| e == "md") {
                    anchored += 1;
                    if !anchors(&resolved).iter().any(|a| a == anchor) {
                        problems.push(format!(
                            "{shown}:{}: {target}: no heading #{anchor} there",
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    println!(
        "checked {links} relative links ({anchored} with an anchor) in {} markdown files",
        files.len()
    );
    assert!(files.len() > 40, "{} markdown files", files.len());
    assert!(links > 200, "{links} links found");
    assert!(
        problems.is_empty(),
        "{} broken links:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The readers themselves, on made-up text.
#[test]
fn the_readers_find_what_they_should() {
    assert_eq!(
        slug("The built-in bots: `duel bot`".replace('`', "").as_str()),
        "the-built-in-bots-duel-bot"
    );
    assert_eq!(
        slug("A finding's row is never lost"),
        "a-findings-row-is-never-lost"
    );
    assert_eq!(
        link_targets("see [a](x.md#y), `[no](code.md)` and ![i](img.png)"),
        ["x.md#y", "img.png"]
    );
    let help = "Usage: x\n\nCommands:\n  step   one\n         more\n  help   h\n\nOptions:\n  -o, --out <FILE>  o\n      --seed <SEED>\n          the --not-this one\n  -h, --help  h\n";
    assert_eq!(subcommands(help), ["step"]);
    assert_eq!(long_flags(help), ["--out", "--seed"]);
    assert!(mentions("`--case ADDRESS`", "--case"));
    assert!(!mentions("`--cases N`", "--case"));
}
