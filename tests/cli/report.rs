//! `lockstep report`, end to end: a real campaign of a core with two planted
//! bugs, its JSON as `lockstep fuzz --format json` writes it, the page the
//! binary makes of it, and that page opened in headless Chromium.
//!
//! The browser half runs where Chromium is installed, and is required where
//! `LOCKSTEP_BROWSER=required` (`.ci/run` installs Chromium and sets it), so
//! that CI cannot pass it by skipping it.

use crate::support::{has, made, scratch, text};
use lockstep_harness::campaign::run_campaign_with;
use lockstep_harness::puzzles::Checkers;
use lockstep_registry::{fuzz_outcome, CampaignSummary};
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
    options.plan.keep_going = true;
    options.stats = true;
    let report = run_campaign_with::<Checkers>(&options, lockstep_planted::checkers::two_bugs);
    let summary = CampaignSummary::of::<Checkers>(report, options.plan.seed);
    assert_eq!(summary.bugs.len(), 2, "the campaign found both bugs");
    assert!(!summary.series.is_empty(), "the campaign kept a series");
    let recorded = vec!["printed only".to_string(); 2];
    let json = lockstep::report::document(
        "fuzz",
        &fuzz_outcome(&options, &[("checkers", summary.clone())], recorded),
    );
    let json_path = dir.join("campaign.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let page_path = dir.join("report.html");
    let out = crate::support::bin()
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

    let Some(browser) = chromium() else {
        assert_ne!(
            std::env::var("LOCKSTEP_BROWSER").as_deref(),
            Ok("required"),
            "LOCKSTEP_BROWSER=required, and no chromium on PATH"
        );
        eprintln!("report: no chromium on PATH: the page was not opened in a browser");
        return;
    };
    rendered_whole(&browser, &dir, &page_path);
}

/// The page in headless Chromium: the bug table with a row per bug, every
/// plot with its line, nothing on the page's console, and a screenshot.
fn rendered_whole(browser: &Path, dir: &Path, page_path: &Path) {
    let profile = dir.join("profile");
    let out = headless(browser, &profile, &["--dump-dom"], page_path);
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
        browser,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,1400",
        ],
        page_path,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    // The guide's screenshot is this one:
    // LOCKSTEP_REPORT_SCREENSHOT=$PWD/docs/guide/src/images/report.png cargo test --test cli report::
    if let Some(keep) = std::env::var_os("LOCKSTEP_REPORT_SCREENSHOT") {
        std::fs::write(&keep, &png).expect("the screenshot is kept where asked");
    }
}

/// A document that is not lockstep's JSON is an error naming the file, and
/// no page is written.
#[test]
fn a_document_that_is_not_locksteps_is_an_error_naming_it() {
    let dir = scratch("report-wrong");
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, r#"{"lockstep": "mutants", "schema": 1}"#).unwrap();
    let out = crate::support::bin()
        .args(["report", "--out"])
        .arg(dir.join("wrong.html"))
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    has(&text(&out.stderr), &["wrong.json"]);
    assert!(!dir.join("wrong.html").exists());
}

/// Both JSON documents the report reads, made by the binary, into one page:
/// a campaign over every puzzle (a section each, with its plots) and a
/// night's triage with a libFuzzer log read into its series.
#[test]
fn the_binary_s_json_of_every_puzzle_and_of_a_night_makes_one_page() {
    let dir = scratch("report-every-puzzle");
    let campaign = crate::support::bin()
        .args([
            "fuzz",
            "--cases",
            "40",
            "--seed",
            "2",
            "--no-append",
            "--format",
            "json",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        campaign.status.code(),
        Some(0),
        "{}",
        text(&campaign.stderr)
    );
    let campaign_json = dir.join("campaign.json");
    std::fs::write(&campaign_json, &campaign.stdout).unwrap();
    // A night: one artifact that does not reproduce, and the target's log.
    let artifacts = dir.join("artifacts");
    std::fs::create_dir_all(artifacts.join("new_game2")).unwrap();
    std::fs::write(artifacts.join("new_game2/crash-1"), [0u8; 16]).unwrap();
    let logs = made(dir.join("logs"));
    std::fs::write(
        logs.join("new_game2.log"),
        "#100: cov: 50 ft: 60 corp: 3 exec/s: 0 oom/timeout/crash: 0/0/0 time: 1s job: 1 dft_time: 0\n\
         #900: cov: 70 ft: 90 corp: 5 exec/s: 0 oom/timeout/crash: 0/0/0 time: 3s job: 2 dft_time: 0\n",
    )
    .unwrap();
    let corpus = made(dir.join("corpus"));
    let night = crate::support::bin()
        .arg("triage")
        .arg(&artifacts)
        .args(["--target", "new-game2", "--format", "json", "--corpus"])
        .arg(&corpus)
        .arg("--fuzzer-logs")
        .arg(&logs)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(night.status.code(), Some(0), "{}", text(&night.stderr));
    let night_json = dir.join("night.json");
    std::fs::write(&night_json, &night.stdout).unwrap();
    let page_path = dir.join("page.html");
    let out = crate::support::bin()
        .arg("report")
        .arg(&campaign_json)
        .arg(&night_json)
        .arg("--out")
        .arg(&page_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(&page_path).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&campaign.stdout).unwrap();
    let puzzles = doc["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), lockstep_registry::all().len());
    for p in puzzles {
        let title = format!("<h2>campaign: {}</h2>", p["puzzle"].as_str().unwrap());
        assert!(page.contains(&title), "{title} is on the page");
    }
    // Cases and their rate for every puzzle (no disagreement, no --stats:
    // no other plot), then the night's executions, rate, cov and ft.
    assert_eq!(page.matches("<svg").count(), 2 * puzzles.len() + 4);
    assert!(
        page.contains("<h2>night: new_game2</h2>"),
        "the night's section"
    );
    let summary = format!(
        "<p id=\"summary\">{} sections, 0 bugs.</p>",
        puzzles.len() + 1
    );
    assert!(page.contains(&summary), "{page:.300}");
}
