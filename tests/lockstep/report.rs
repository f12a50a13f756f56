//! `lockstep report`, end to end: a real campaign of a core with two planted
//! bugs, its JSON as `lockstep fuzz --format json` writes it, the page the
//! binary makes of it, and that page opened in headless Chromium.
//!
//! The browser half runs where Chromium is installed, and is required where
//! `LOCKSTEP_BROWSER=required` (`.ci/run` installs Chromium and sets it), so
//! that CI cannot pass it by skipping it.

use crate::support::{scratch, text, BIN};
use lockstep::campaign::run_campaign_with;
use lockstep::puzzles::Checkers;
use lockstep::registry::{fuzz_json, FuzzSummary};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The headless browser, if there is one.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Chromium on `page`, headless, with its console on stderr; the output.
fn headless(browser: &Path, profile: &Path, args: &[&str], page: &Path) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .output()
        .expect("chromium starts")
}

#[test]
fn a_campaign_with_two_bugs_makes_a_page_that_renders_both() {
    let dir = scratch("report");
    let mut options = crate::support::campaign_options(7, 20_000);
    options.keep_going = true;
    options.stats = true;
    let report = run_campaign_with::<Checkers>(&options, crate::signatures::two_bugs);
    let summary = FuzzSummary::of::<Checkers>(report, options.seed);
    assert_eq!(summary.bugs.len(), 2, "the campaign found both bugs");
    assert!(!summary.series.is_empty(), "the campaign kept a series");
    let recorded = vec!["printed only".to_string(); 2];
    let json = fuzz_json(&options, &[("checkers", summary.clone())], recorded);
    let json_path = dir.join("campaign.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let page_path = dir.join("report.html");
    let out = Command::new(BIN)
        .args(["report", "--title", "two bugs"])
        .arg(&json_path)
        .arg("--out")
        .arg(&page_path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The terminal names both bugs.
    for bug in &summary.bugs {
        assert!(stderr.contains(&bug.signature), "{stderr}");
    }
    let page = std::fs::read_to_string(&page_path).unwrap();
    // Self-contained: nothing to fetch, no script. (SVG's namespace is a
    // name, not an address the browser loads.)
    let fetchable = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for needle in ["http://", "https://", "<script", "src=", "<link", "url("] {
        assert!(!fetchable.contains(needle), "the page holds {needle:?}");
    }
    for bug in &summary.bugs {
        assert!(
            page.contains(&bug.signature),
            "{} is on the page",
            bug.signature
        );
    }
    assert_eq!(
        page.matches("<svg").count(),
        4,
        "cases, rate, branches, disagreements"
    );

    // A page that is not lockstep's JSON is an error naming the file.
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, r#"{"lockstep": "mutants", "schema": 1}"#).unwrap();
    let out = Command::new(BIN)
        .args(["report", "--out"])
        .arg(dir.join("wrong.html"))
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("wrong.json"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("wrong.html").exists());

    let Some(browser) = chromium() else {
        assert_ne!(
            std::env::var("LOCKSTEP_BROWSER").as_deref(),
            Ok("required"),
            "LOCKSTEP_BROWSER=required, and no chromium on PATH"
        );
        eprintln!("report: no chromium on PATH: the page was not opened in a browser");
        return;
    };
    let profile = dir.join("profile");
    let out = headless(&browser, &profile, &["--dump-dom"], &page_path);
    let dom = text(&out.stdout);
    let console = text(&out.stderr);
    assert!(out.status.success(), "{console}");
    // The browser's DOM, after parsing: the bug table with a row per bug, and
    // every plot with its line drawn.
    assert_eq!(dom.matches("<table class=\"bugs\">").count(), 1, "{dom}");
    assert_eq!(dom.matches("<tr><td><code>checkers:").count(), 2, "{dom}");
    assert_eq!(dom.matches("<svg").count(), 4, "{dom}");
    assert!(dom.matches("<polyline").count() >= 4, "{dom}");
    // Nothing on the page's console: no errors, no failed loads (a load the
    // page tried is a console message too). Chromium's own log lines, such
    // as its background services' network errors on a machine without a
    // network, are not the page's.
    let complaints: Vec<&str> = console
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(complaints.is_empty(), "{complaints:#?}");
    let shot = dir.join("report.png");
    let out = headless(
        &browser,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,1400",
        ],
        &page_path,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    // The README's screenshot is this one:
    // LOCKSTEP_REPORT_SCREENSHOT=$PWD/docs/images/report.png cargo test --test lockstep report::
    if let Some(keep) = std::env::var_os("LOCKSTEP_REPORT_SCREENSHOT") {
        std::fs::write(&keep, &png).expect("the screenshot is kept where asked");
    }
}
