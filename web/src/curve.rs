//! A pasted run's curve against the model's, for "Your node": bus bandwidth by message size, both axes
//! logarithmic, so that a reader sees where the two part. Drawn in the details worker only (the first load does
//! not carry it).

use estimator_core::health::{Health, SizeCheck};
use estimator_core::{Bytes, human};

use crate::chart::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, log_gridlines};
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
    let mut out = Html::new();
    if rows.len() < 2 {
        return out;
    }
    let x_lo = rows.iter().map(|c| c.size_bytes.log2()).fold(f64::INFINITY, f64::min);
    let x_hi = rows.iter().map(|c| c.size_bytes.log2()).fold(f64::NEG_INFINITY, f64::max);
    let values = rows.iter().flat_map(|c| [c.measured_busbw_gbs, c.expected_busbw_gbs]);
    let (v_lo, v_hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
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
    html!(
        out,
        r#"<figure class="chart curve" id="report-curve"><figcaption>{} bus bandwidth (GB/s, up the side) by message size, measured against the model (both axes logarithmic): <span class="swatch line-measured"></span> measured <span class="swatch line-model"></span> model</figcaption><svg viewBox="0 0 {} {}" role="img" aria-label="The run's bus bandwidth and the model's by message size">"#,
        h.op.name(),
        at(WIDTH),
        at(HEIGHT)
    );
    log_gridlines(&mut out, (d_lo, d_hi), y, |v| human::sig(v, 2));
    // A size label every few powers of two, at most eight.
    let step = ((span / 7.0).ceil() as i32).max(1);
    let mut p = x_lo.ceil() as i32;
    while f64::from(p) <= x_hi + 1e-9 {
        let size = 2f64.powi(p);
        html!(
            out,
            r#"<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            at(x(size)),
            at(HEIGHT - BOTTOM + 16.0),
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
    for (class, pick) in [("line-measured", true), ("line-model", false)] {
        let value = |c: &SizeCheck| if pick { c.measured_busbw_gbs } else { c.expected_busbw_gbs };
        let mut path = String::new();
        for (i, c) in rows.iter().enumerate() {
            path.push_str(if i == 0 { "M" } else { " L" });
            path.push_str(&at(x(c.size_bytes)));
            path.push(' ');
            path.push_str(&at(y(value(c))));
        }
        html!(out, r#"<g class="{}"><path d="{}"></path>"#, class, path);
        for c in &rows {
            html!(
                out,
                r#"<circle class="dot" cx="{}" cy="{}" r="3"><title>{}: {} GB/s {}</title></circle>"#,
                at(x(c.size_bytes)),
                at(y(value(c))),
                human::binary(Bytes::new(c.size_bytes)),
                human::num(value(c), 1),
                if pick { "measured" } else { "expected" }
            );
        }
        out.push_static("</g>");
    }
    out.push_static("</svg></figure>");
    out
}
