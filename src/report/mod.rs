//! `lockstep report`: one self-contained HTML page from the JSON that
//! `lockstep fuzz --format json` (a campaign) and `lockstep triage --format
//! json` (a night) write.
//!
//! The page is what a user opens in the morning: per puzzle or fuzz target,
//! the counts, the run over time as plots (cases, rate, rule branches or
//! coverage, disagreements), every bug with its signature, its count, the
//! shrunk case, both answers, the first divergence and the command that
//! replays it, and the corpus rows the run added. It fetches nothing when it
//! is viewed: the plots are SVG drawn here by plotters, the styles are inline,
//! and there is no script.
//!
//! The JSON is read loosely on purpose (a missing optional field is an empty
//! cell), but a document that is not one of lockstep's, or of a schema this
//! build does not know, is an error naming the file.

use anyhow::{bail, Result};
use lockstep_registry::BugCase;
use serde_json::Value;

mod libfuzzer;
mod page;

pub use libfuzzer::{libfuzzer_series, FuzzerSample};
pub use page::{plot_svg, report_html};

/// The schema of the JSON documents this build reads and writes.
pub const SCHEMA: u64 = 1;

/// The JSON document of `command`: the fields of `body` (a command's
/// serde-derived outcome) and the `lockstep` (the command) and `schema`
/// fields every document of lockstep's has, keys in sorted order
/// (docs/guide/src/reference/json.md).
pub fn document(command: &str, body: &impl serde::Serialize) -> Value {
    let mut value = serde_json::to_value(body).expect("an outcome serializes");
    let fields = value
        .as_object_mut()
        .expect("an outcome serializes as a JSON object");
    fields.insert("lockstep".to_string(), command.into());
    fields.insert("schema".to_string(), SCHEMA.into());
    value
}

/// One JSON document, named by the file it came from.
pub struct Source {
    pub name: String,
    pub document: Value,
}

/// A plot: named lines of (seconds, value) points.
pub struct Plot {
    pub title: String,
    pub y_label: String,
    pub lines: Vec<(String, Vec<(f64, f64)>)>,
}

/// One puzzle of a campaign or one target of a night, as the page shows it.
pub struct Section {
    pub title: String,
    /// Label and value, in order.
    pub counts: Vec<(String, String)>,
    pub plots: Vec<Plot>,
    pub bugs: Vec<BugView>,
    /// Corpus rows the run added: file and row name, or where it went.
    pub rows_added: Vec<String>,
}

/// A bug as the page shows it.
pub struct BugView {
    pub signature: String,
    pub count: u64,
    pub first: String,
    pub case: BugCase,
    pub recorded: String,
}

/// Reads the sections of every source, in order.
pub fn report_sections(sources: &[Source]) -> Result<Vec<Section>> {
    let mut sections = Vec::new();
    for source in sources {
        let doc = &source.document;
        let schema = doc["schema"].as_u64();
        if schema != Some(SCHEMA) {
            bail!(
                "{}: schema {} where this lockstep reads schema {SCHEMA}",
                source.name,
                doc["schema"]
            );
        }
        match doc["lockstep"].as_str() {
            Some("fuzz") => sections.extend(campaign_sections(doc)),
            Some("triage") => sections.extend(night_sections(doc)),
            Some("verify") => sections.extend(verify_sections(doc)),
            other => bail!(
                "{}: not the JSON of `lockstep fuzz`, `triage` or `verify` (\"lockstep\": {})",
                source.name,
                other.map_or("missing".to_string(), |k| format!("{k:?}"))
            ),
        }
    }
    Ok(sections)
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or(0.0)
}

fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], |a| a.as_slice())
}

/// The points of `field` against `seconds` in a series.
fn points(series: &[Value], field: &str) -> Vec<(f64, f64)> {
    series
        .iter()
        .map(|s| (number(&s["seconds"]), number(&s[field])))
        .collect()
}

/// The rate of `field` per second between samples, as steps: level over
/// each interval (so that two samples already draw a line).
fn rate(series: &[Value], field: &str) -> Vec<(f64, f64)> {
    // The last sample of each moment: libFuzzer stamps several status lines
    // with one whole second, and a rate between two of them is noise.
    let mut p = points(series, field);
    p.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0;
        if same {
            *earlier = *later;
        }
        same
    });
    p.windows(2)
        .filter(|w| w[1].0 > w[0].0)
        .flat_map(|w| {
            let level = (w[1].1 - w[0].1) / (w[1].0 - w[0].0);
            [(w[0].0, level), (w[1].0, level)]
        })
        .collect()
}

/// The plots of one series: the cumulative `total` field, its rate, and
/// every other field given, each drawn only when it ever moved from zero.
fn series_plots(series: &[Value], total: (&str, &str), others: &[(&str, &str)]) -> Vec<Plot> {
    if series.is_empty() {
        return Vec::new();
    }
    let one = |title: &str, label: &str, line: Vec<(f64, f64)>| Plot {
        title: title.to_string(),
        y_label: label.to_string(),
        lines: vec![(label.to_string(), line)],
    };
    let mut plots = vec![
        one(
            &format!("{} over time", total.1),
            total.1,
            points(series, total.0),
        ),
        one(
            &format!("{} per second", total.1),
            &format!("{}/s", total.1),
            rate(series, total.0),
        ),
    ];
    for (field, label) in others {
        let line = points(series, field);
        if line.iter().any(|&(_, y)| y != 0.0) {
            plots.push(one(&format!("{label} over time"), label, line));
        }
    }
    plots
}

/// A campaign's bug (a [`lockstep_registry::BugSummary`] as JSON) as the page
/// shows it.
fn bug_view(b: &Value, first: String, recorded: String) -> BugView {
    BugView {
        signature: text(&b["signature"]),
        count: b["count"].as_u64().unwrap_or(1),
        first,
        case: BugCase {
            shrunk: text(&b["shrunk"]),
            input: text(&b["input"]),
            core_answer: text(&b["core_answer"]),
            reference_answer: text(&b["reference_answer"]),
            divergence: text(&b["divergence"]),
            replay: text(&b["replay"]),
        },
        recorded,
    }
}

/// `lockstep verify`'s document: a section per puzzle, its levels' counts
/// and digests, and what they prove.
fn verify_sections(doc: &Value) -> Vec<Section> {
    items(&doc["puzzles"])
        .iter()
        .map(|p| {
            let up_to = text(&p["up_to"]);
            let verdict = match p["verified"].as_bool() {
                Some(true) => format!("verified: every case up to size {up_to}"),
                _ => format!("not verified up to size {up_to}"),
            };
            let mut counts = vec![
                ("result".to_string(), verdict),
                ("size".to_string(), text(&p["size"])),
                ("limits".to_string(), text(&doc["limits"])),
                ("symmetry".to_string(), text(&doc["symmetry"])),
                ("shard".to_string(), text(&doc["shard"])),
                ("cases".to_string(), text(&p["cases"])),
                ("checked".to_string(), text(&p["checked"])),
                ("rule branches".to_string(), branches_reached(p)),
            ];
            for l in items(&p["levels"]) {
                counts.push((
                    format!("size {}", text(&l["size"])),
                    format!(
                        "{} cases, {} checked, {} skipped, {} differ, digest {}",
                        text(&l["cases"]),
                        text(&l["classes"]),
                        text(&l["skipped"]),
                        text(&l["disagreements"]),
                        text(&l["digest"])
                    ),
                ));
            }
            let bugs: Vec<BugView> = items(&p["bugs"])
                .iter()
                .map(|b| bug_view(&b["bug"], text(&b["bug"]["first"]), text(&b["recorded"])))
                .collect();
            Section {
                title: format!("verify: {}", text(&p["puzzle"])),
                counts,
                plots: Vec::new(),
                rows_added: rows_added(&bugs),
                bugs,
            }
        })
        .collect()
}

/// A verified puzzle's rule branches: how many its cases reach, and which
/// they do not.
fn branches_reached(p: &Value) -> String {
    if p["branches"].is_null() {
        return "not counted (a document of an older lockstep)".to_string();
    }
    let not_reached: Vec<String> = items(&p["not_reached"]).iter().map(text).collect();
    let mut line = format!(
        "{} of {} reached",
        text(&p["branches_reached"]),
        text(&p["branches"])
    );
    if !not_reached.is_empty() {
        line += &format!("; not reached: {}", not_reached.join("; "));
    }
    line
}

fn campaign_sections(doc: &Value) -> Vec<Section> {
    items(&doc["puzzles"])
        .iter()
        .map(|p| {
            let series = items(&p["series"]);
            let bugs: Vec<BugView> = items(&p["bugs"])
                .iter()
                .map(|b| {
                    let first = format!(
                        "job {} case {} after {:.2} s",
                        text(&b["first_job"]),
                        text(&b["first_case"]),
                        number(&b["seconds_to_first"])
                    );
                    bug_view(b, first, text(&b["recorded"]))
                })
                .collect();
            Section {
                title: format!("campaign: {}", text(&p["puzzle"])),
                counts: [
                    ("seed", text(&doc["seed"])),
                    ("limits", text(&doc["limits"])),
                    ("cases", text(&p["cases"])),
                    ("cases/s", format!("{:.0}", number(&p["cases_per_second"]))),
                    ("agree", text(&p["agree"])),
                    ("diverge", text(&p["diverge"])),
                    ("timeout", text(&p["timeout"])),
                    ("seconds", format!("{:.1}", number(&p["seconds"]))),
                    ("bugs", bugs.len().to_string()),
                ]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
                plots: series_plots(
                    series,
                    ("cases", "cases"),
                    &[
                        ("branches", "rule branches reached"),
                        ("regions", "code regions reached"),
                        ("diverge", "disagreements"),
                    ],
                ),
                rows_added: rows_added(&bugs),
                bugs,
            }
        })
        .collect()
}

/// Where the rows of the bugs that were appended went.
fn rows_added(bugs: &[BugView]) -> Vec<String> {
    bugs.iter()
        .filter(|b| b.recorded.starts_with("appended"))
        .map(|b| b.recorded.clone())
        .collect()
}

fn night_sections(doc: &Value) -> Vec<Section> {
    items(&doc["targets"])
        .iter()
        .map(|t| {
            let series = items(&t["series"]);
            let bugs: Vec<BugView> = items(&t["bugs"])
                .iter()
                .map(|b| {
                    let row = &b["row"];
                    BugView {
                        signature: text(&b["signature"]),
                        count: b["examples"].as_u64().unwrap_or(1),
                        first: String::new(),
                        case: BugCase {
                            shrunk: text(&row["note"]),
                            input: lockstep_harness::corpus::decode_text(&text(&row["input"])),
                            core_answer: "(see the report beside)".to_string(),
                            reference_answer: text(&row["expected"]),
                            divergence: text(&b["report"]),
                            replay: format!(
                                "cargo test --test corpus_rows {}/{}",
                                text(&t["target"]),
                                text(&row["name"])
                            ),
                        },
                        recorded: text(&b["recorded"]),
                    }
                })
                .collect();
            Section {
                title: format!("night: {}", text(&t["target"])),
                counts: [
                    ("artifacts", text(&t["artifacts"])),
                    ("reproduced", text(&t["reproduced"])),
                    ("bugs", bugs.len().to_string()),
                    ("not reproduced", text(&t["not_reproduced"])),
                    ("failed", text(&t["failed"])),
                ]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
                plots: series_plots(
                    series,
                    ("execs", "executions"),
                    &[
                        ("cov", "coverage (libFuzzer cov)"),
                        ("ft", "features (libFuzzer ft)"),
                        ("crashes", "crashes"),
                    ],
                ),
                rows_added: rows_added(&bugs),
                bugs,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
