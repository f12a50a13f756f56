//! Judge text as lockstep compares and quotes it: the lines a judge compares
//! (the rule at [`judge_lines`]), where two outputs first differ, and
//! bounded quotes for notes and reports, counts and durations in words.
//! Used by the corpus, replay, stress, the judge and the reports; a crate of
//! its own on the ground floor, since it knows nothing of searching.

/// The lines of a judge output as a judge compares them. The whole rule,
/// as the guide states it (docs/guide/src/reference/comparisons.md): outputs are compared line by line, after
/// removing the whitespace at the end of each line (spaces, tabs, a `\r`)
/// and the whitespace at the end of the output (so its final newline and
/// any empty lines after the last line with something on it). Everything
/// else counts: a leading space, two spaces where the answer has one, a tab
/// for a space, an empty line before or between lines. (This is the
/// `lines` comparison; a line-blind comparison of tokens is another rule.)
pub fn judge_lines(text: &str) -> Vec<&str> {
    text.trim_end().lines().map(str::trim_end).collect()
}

/// Compares judge outputs by the rule of [`judge_lines`].
pub fn same_output(a: &str, b: &str) -> bool {
    judge_lines(a) == judge_lines(b)
}

/// Longest piece of an answer line quoted in a note or a one-line report.
pub const QUOTE_CHARS: usize = 60;

/// `text` cut to at most `max` characters, with `…` where it was cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// Where two judge outputs first differ, in one bounded line: `line N: A "..",
/// B ".." (x lines A, y B)`, with long lines cut. Judge comparison:
/// trailing spaces and final newlines do not count.
pub fn first_difference(a_name: &str, a: &str, b_name: &str, b: &str) -> String {
    let (a_lines, b_lines) = (judge_lines(a), judge_lines(b));
    let first = (0..a_lines.len().max(b_lines.len()))
        .find(|&i| a_lines.get(i) != b_lines.get(i))
        .unwrap_or(0);
    let show = |v: &[&str]| {
        v.get(first).map_or("(no line)".to_string(), |l| {
            format!("{:?}", clip(l, QUOTE_CHARS))
        })
    };
    format!(
        "line {}: {a_name} {}, {b_name} {} ({} lines {a_name}, {} {b_name})",
        first + 1,
        show(&a_lines),
        show(&b_lines),
        a_lines.len(),
        b_lines.len()
    )
}

/// Lines of a text a report shows at most, and characters of each.
const REPORT_LINES: usize = 40;
const REPORT_LINE_CHARS: usize = 200;

/// `text` indented for a report, cut after `REPORT_LINES` lines (and each
/// line after `REPORT_LINE_CHARS` characters), with what was left out said:
/// a program's output can be megabytes.
pub fn indent(text: &str) -> String {
    let mut shown: String = text
        .lines()
        .take(REPORT_LINES)
        .map(|l| format!("    {}\n", clip(l, REPORT_LINE_CHARS)))
        .collect();
    let lines = text.lines().count();
    if lines > REPORT_LINES {
        shown.push_str(&format!(
            "    ... ({} more lines; {lines} lines, {} bytes in all)\n",
            lines - REPORT_LINES,
            text.len()
        ));
    }
    shown
}

/// The part every disagreement report shares (fuzz, shrink, cargo-fuzz targets):
/// the input, indented, both answers aligned, then the puzzle's explanation.
pub fn disagreement_body(input: &str, core: &str, reference: &str, report: &str) -> String {
    format!(
        "input:\n{}core answered:      {core}\nreference answered: {reference}\n{report}",
        indent(input)
    )
}

/// `n` and the word, in the plural unless `n` is 1: `1 job`, `2 jobs`,
/// `0 rows`.
pub fn counted(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Seconds as a person reads them: `45 s`, `12 min`, `3.5 h`, `9.1 days`.
pub fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < 2.0 * 31_557_600.0 => format!("{:.1} days", s / 86_400.0),
        s => format!("{:.0} years", s / 31_557_600.0),
    }
}

#[cfg(test)]
mod tests;
