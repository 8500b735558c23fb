//! A pasted run's curve against the model's, for "Your node": bus bandwidth by message size, both axes
//! logarithmic, so that a reader sees where the two part. Drawn in the details worker only (the first load does
//! not carry it).

use estimator_core::health::{Health, SizeCheck};
use estimator_core::{Bytes, human};

use crate::chart::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, X_LABELS, log_gridlines};
use crate::html;
use crate::html::Html;

/// An SVG coordinate, to a tenth of a unit.
fn at(v: f64) -> String {
    human::fixed(v, 1)
}

/// The rows with a bus bandwidth on both sides (nccl-tests prints 0.00 for the smallest sizes).
fn drawable(h: &Health) -> Vec<&SizeCheck> {
    h.curve.iter().filter(|c| c.measured_busbw_gbs > 0.0 && c.expected_busbw_gbs > 0.0 && c.size_bytes >= 1.0).collect()
}

/// The chart's `<figure>` (an SVG with the measured and the model's line, and a legend), or nothing when the run
/// has fewer than two sizes to draw.
pub fn figure(h: &Health) -> Html {
    let rows = drawable(h);
    let measured: Vec<(f64, f64)> = rows.iter().map(|c| (c.size_bytes, c.measured_busbw_gbs)).collect();
    let model: Vec<(f64, f64)> = rows.iter().map(|c| (c.size_bytes, c.expected_busbw_gbs)).collect();
    lines_figure(
        "report-curve",
        &format!("{} bus bandwidth", h.op.name()),
        &[
            Line { class: "line-measured", label: "measured", points: measured },
            Line { class: "line-model", label: "model", points: model },
        ],
    )
}

/// One line of a curve chart: its class (`line-measured`, `line-model`, `line-a`, ...), its legend and dots' word,
/// and its (size in bytes, bus bandwidth in GB/s) points, smallest size first.
pub struct Line<'a> {
    /// The CSS class that colours it.
    pub class: &'a str,
    /// Its name in the legend and the dots' titles.
    pub label: &'a str,
    /// (size, busbw) points.
    pub points: Vec<(f64, f64)>,
}

/// A curve chart `<figure id=..>` of some lines of bus bandwidth by message size, both axes logarithmic, `what`
/// naming the quantity in the caption; nothing when there are fewer than two points to draw.
pub fn lines_figure(id: &str, what: &str, lines: &[Line<'_>]) -> Html {
    let mut out = Html::new();
    let all: Vec<(f64, f64)> =
        lines.iter().flat_map(|l| l.points.iter().copied()).filter(|(s, v)| *s >= 1.0 && *v > 0.0).collect();
    if all.len() < 2 {
        return out;
    }
    let x_lo = all.iter().map(|p| p.0.log2()).fold(f64::INFINITY, f64::min);
    let x_hi = all.iter().map(|p| p.0.log2()).fold(f64::NEG_INFINITY, f64::max);
    let (v_lo, v_hi) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
    // The values' own range with a margin (whole decades left most of the plot empty), at least a factor of 4.
    let (mut d_lo, mut d_hi) = ((v_lo / 1.3).log10(), (v_hi * 1.3).log10());
    if d_hi - d_lo < 0.6 {
        let mid = (d_hi + d_lo) / 2.0;
        (d_lo, d_hi) = (mid - 0.3, mid + 0.3);
    }
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let span = (x_hi - x_lo).max(1.0);
    let x = |size: f64| LEFT + plot_w * (size.log2() - x_lo) / span;
    let y = |v: f64| TOP + plot_h * (1.0 - (v.log10() - d_lo) / (d_hi - d_lo));
    let mut legend = Html::new();
    for l in lines {
        html!(legend, r#" <span class="swatch {}"></span> {}"#, l.class, l.label);
    }
    let names: Vec<&str> = lines.iter().map(|l| l.label).collect();
    html!(
        out,
        r#"<figure class="chart curve" id="{}"><figcaption>{} (GB/s, up the side) by message size, both axes logarithmic:{}</figcaption><svg viewBox="0 0 {} {}" role="img" aria-label="{} by message size: {}">"#,
        id,
        what,
        legend,
        at(WIDTH),
        at(HEIGHT),
        what,
        names.join(", ")
    );
    log_gridlines(&mut out, (d_lo, d_hi), y, |v| human::sig(v, 2));
    // A size label every few powers of two, at most eight.
    let step = ((span / 7.0).ceil() as i32).max(1);
    let mut p = x_lo.ceil() as i32;
    while f64::from(p) <= x_hi + 1e-9 {
        let size = 2f64.powi(p);
        // The last label ends at the plot's edge rather than past the figure's (it was cut: "256 Mi").
        let anchor = if f64::from(p + step) > x_hi + 1e-9 && f64::from(p) >= x_hi - 1e-9 { "end" } else { "middle" };
        html!(
            out,
            r#"<text class="tick" x="{}" y="{}" text-anchor="{}">{}</text>"#,
            at(x(size)),
            at(HEIGHT - BOTTOM + X_LABELS),
            anchor,
            human::binary(Bytes::new(size))
        );
        p += step;
    }
    html!(
        out,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">message size</text>"#,
        at((WIDTH + LEFT) / 2.0),
        at(HEIGHT - 4.0)
    );
    for l in lines {
        let pts: Vec<&(f64, f64)> = l.points.iter().filter(|(s, v)| *s >= 1.0 && *v > 0.0).collect();
        let mut path = String::new();
        for (i, (size, v)) in pts.iter().enumerate() {
            path.push_str(if i == 0 { "M" } else { " L" });
            path.push_str(&at(x(*size)));
            path.push(' ');
            path.push_str(&at(y(*v)));
        }
        html!(out, r#"<g class="{}"><path d="{}"></path>"#, l.class, path);
        for (size, v) in pts {
            html!(
                out,
                r#"<circle class="dot" cx="{}" cy="{}" r="3"><title>{}: {} GB/s {}</title></circle>"#,
                at(x(*size)),
                at(y(*v)),
                human::binary(Bytes::new(*size)),
                human::num(*v, 1),
                l.label
            );
        }
        out.push_static("</g>");
    }
    out.push_static("</svg></figure>");
    out
}
