//! The page itself: HTML with inline styles and SVG plots, no script and
//! nothing fetched when it is viewed.

use super::{Plot, Section};
use anyhow::{Context, Result};
use std::fmt::Write as _;

/// A plot as an SVG element (plotters' SVG backend).
pub fn plot_svg(plot: &Plot) -> Result<String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (520, 240)).into_drawing_area();
        root.fill(&WHITE)?;
        let all = plot.lines.iter().flat_map(|(_, l)| l.iter());
        let (x_max, y_max) = all.fold((1.0f64, 1.0f64), |(x, y), &(px, py)| (x.max(px), y.max(py)));
        let mut chart = ChartBuilder::on(&root)
            .caption(&plot.title, ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..x_max * 1.02, 0.0..y_max * 1.05)?;
        chart
            .configure_mesh()
            .x_desc("seconds")
            .y_desc(&plot.y_label)
            .draw()?;
        let colours = [BLUE, RED, GREEN, MAGENTA];
        for (i, (_, line)) in plot.lines.iter().enumerate() {
            let colour = colours[i % colours.len()];
            chart.draw_series(LineSeries::new(
                line.iter().copied(),
                colour.stroke_width(2),
            ))?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// `&`, `<`, `>` and quotes as entities: text from a run, put in the page.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:2em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;\
vertical-align:top;text-align:left}pre{margin:0;white-space:pre-wrap;font-size:.85em}\
.plots{display:flex;flex-wrap:wrap;gap:.5em}.none{color:#777}";

/// The whole page.
pub fn report_html(title: &str, sections: &[Section]) -> Result<String> {
    let mut page = String::new();
    let bugs: usize = sections.iter().map(|s| s.bugs.len()).sum();
    write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t}</title><style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n\
         <p id=\"summary\">{}, {}.</p>\n",
        lockstep_text::counted(sections.len() as u64, "section"),
        lockstep_text::counted(bugs as u64, "bug"),
        t = escape(title)
    )?;
    for section in sections {
        write!(
            page,
            "<h2>{}</h2>\n<table class=\"counts\"><tr>",
            escape(&section.title)
        )?;
        for (label, _) in &section.counts {
            write!(page, "<th>{}</th>", escape(label))?;
        }
        page.push_str("</tr><tr>");
        for (_, value) in &section.counts {
            write!(page, "<td>{}</td>", escape(value))?;
        }
        page.push_str("</tr></table>\n<div class=\"plots\">\n");
        for plot in &section.plots {
            page.push_str(&plot_svg(plot).with_context(|| format!("drawing {}", plot.title))?);
            page.push('\n');
        }
        page.push_str("</div>\n");
        if section.bugs.is_empty() {
            page.push_str("<p class=\"none\">No bugs.</p>\n");
        } else {
            page.push_str(
                "<table class=\"bugs\"><tr><th>signature</th><th>count</th><th>first</th>\
                 <th>shrunk case</th><th>input</th><th>core</th><th>reference</th>\
                 <th>first divergence</th><th>replay</th><th>row</th></tr>\n",
            );
            for b in &section.bugs {
                writeln!(
                    page,
                    "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>\
                     <td><pre>{}</pre></td><td><pre>{}</pre></td><td><pre>{}</pre></td>\
                     <td><pre>{}</pre></td><td><code>{}</code></td><td>{}</td></tr>",
                    escape(&b.signature),
                    b.count,
                    escape(&b.first),
                    escape(&b.case.shrunk),
                    escape(&b.case.input),
                    escape(&b.case.core_answer),
                    escape(&b.case.reference_answer),
                    escape(&b.case.divergence),
                    escape(&b.case.replay),
                    escape(&b.recorded)
                )?;
            }
            page.push_str("</table>\n");
        }
        if !section.rows_added.is_empty() {
            page.push_str("<p>Corpus rows added:</p><ul class=\"rows\">");
            for row in &section.rows_added {
                write!(page, "<li>{}</li>", escape(row))?;
            }
            page.push_str("</ul>\n");
        }
    }
    page.push_str("</body></html>\n");
    Ok(page)
}
