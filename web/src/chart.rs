//! Chart geometry, drawn from the model: pure functions from estimates to SVG coordinates, so the view only
//! places what is computed here (and the tests can check the numbers without a browser).

use std::fmt::Write;

use estimator_core::{BatchRule, Scenario, StepEstimate, SweepPoint, sweep_nodes_as};

use crate::html;
use crate::html::Html;
use crate::result::SideResult;
use crate::share::{ChartAxis, PageState, Side};
use estimator_core::human;

/// What a part of a step bar is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// Compute with no communication under it.
    Compute,
    /// Compute with communication hidden under it.
    Hidden,
    /// Communication that adds to the step.
    Exposed,
    /// Pipeline stages waiting for each other (the 1F1B bubble).
    Bubble,
    /// Every rank waiting for the slowest one.
    Wait,
}

impl SegmentKind {
    /// The legend text.
    pub fn label(self) -> &'static str {
        match self {
            SegmentKind::Compute => "compute",
            SegmentKind::Hidden => "hidden communication (under compute)",
            SegmentKind::Exposed => "exposed communication",
            SegmentKind::Bubble => "pipeline bubble",
            SegmentKind::Wait => "wait for the slowest rank",
        }
    }

    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            SegmentKind::Compute => "seg-compute",
            SegmentKind::Hidden => "seg-hidden",
            SegmentKind::Exposed => "seg-exposed",
            SegmentKind::Bubble => "seg-bubble",
            SegmentKind::Wait => "seg-wait",
        }
    }
}

/// One part of a step bar, in chart units.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// What it is.
    pub kind: SegmentKind,
    /// Left edge.
    pub x: f64,
    /// Width.
    pub width: f64,
    /// Its duration.
    pub seconds: f64,
}

/// Splits a step into compute only, compute with hidden communication under it, exposed communication, the
/// pipeline bubble and the wait for the slowest rank, scaled so that `scale_s` seconds span `width`. Parts sum
/// to the step time. (Communication on different links can hide more than the compute lasts; the bar shows the
/// compute it covers.)
pub fn bar_segments(step: &StepEstimate, scale_s: f64, width: f64) -> Vec<Segment> {
    let compute = step.compute_s.as_secs();
    let hidden = step.hidden_comm_s.as_secs().min(compute);
    let parts = [
        (SegmentKind::Compute, (compute - hidden).max(0.0)),
        (SegmentKind::Hidden, hidden),
        (SegmentKind::Exposed, step.exposed_comm_s.as_secs()),
        (SegmentKind::Bubble, step.bubble_s.as_secs()),
        (SegmentKind::Wait, step.rank_wait_s.as_secs()),
    ];
    let k = if scale_s > 0.0 { width / scale_s } else { 0.0 };
    let mut x = 0.0;
    let mut out = Vec::new();
    for (kind, seconds) in parts {
        if seconds > 0.0 {
            let w = seconds * k;
            out.push(Segment { kind, x, width: w, seconds });
            x += w;
        }
    }
    out
}

/// Node counts of the nodes chart: powers of two up to 256, plus the scenario's own.
pub const NODE_STEPS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// The sweep behind one line of the nodes chart.
pub fn node_sweep(s: &Scenario, batch: BatchRule) -> Vec<SweepPoint> {
    let mut nodes: Vec<u32> = NODE_STEPS.to_vec();
    if !nodes.contains(&s.nodes()) {
        nodes.push(s.nodes());
        nodes.sort_unstable();
    }
    // Every count here is within the model's limits, so the sweep cannot fail (counts the layout does not fit are
    // left out of the line); an empty line is the fallback.
    sweep_nodes_as(s, &nodes, batch).unwrap_or_default()
}

/// A tick on an axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Position in chart units.
    pub pos: f64,
    /// Its label.
    pub label: String,
}

/// A point on a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// x in chart units.
    pub x: f64,
    /// y in chart units.
    pub y: f64,
    /// Tooltip and accessible text.
    pub title: String,
    /// The scenario's own node count.
    pub current: bool,
}

/// One scenario's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// SVG path data.
    pub path: String,
    /// Its points.
    pub points: Vec<Point>,
}

/// The nodes chart: axes and lines in a `WIDTH x HEIGHT` box.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Ticks along x (node counts).
    pub x_ticks: Vec<Tick>,
    /// Ticks along y.
    pub y_ticks: Vec<Tick>,
    /// One line per scenario.
    pub lines: Vec<Line>,
}

/// Chart box width.
pub const WIDTH: f64 = 640.0;
/// Chart box height.
pub const HEIGHT: f64 = 280.0;
/// Plot area: left margin (y labels).
pub const LEFT: f64 = 64.0;
/// Plot area: right margin.
pub const RIGHT: f64 = 16.0;
/// Plot area: top margin.
pub const TOP: f64 = 12.0;
/// Plot area: bottom margin: the x labels' row (baseline [`X_LABELS`] below the plot), then the axis title's (at
/// the box's foot). A phone draws the labels at 22 units (style.css): with its cap height (about 16) and descent
/// (about 6) the two rows stay apart, where 36 units made them overlap.
pub const BOTTOM: f64 = 50.0;
/// The x labels' baseline below the plot area.
pub const X_LABELS: f64 = 18.0;

fn value(p: &SweepPoint, axis: ChartAxis) -> f64 {
    match axis {
        ChartAxis::StepTime => p.step_s.as_secs(),
        ChartAxis::Efficiency => p.scaling_efficiency,
    }
}

/// Lays out step time (log scale) or scaling efficiency against nodes (log2 scale) for each sweep.
pub fn nodes_chart(sweeps: &[(&[SweepPoint], u32)], axis: ChartAxis) -> LineChart {
    let xs = sweeps.iter().flat_map(|(s, _)| s.iter().map(|p| p.x)).filter(|x| *x >= 1.0);
    let x_max = xs.fold(1.0_f64, f64::max).max(2.0);
    let lx = |n: f64| LEFT + (WIDTH - LEFT - RIGHT) * n.max(1.0).log2() / x_max.log2();
    let plot_h = HEIGHT - TOP - BOTTOM;

    let (y_of, y_ticks): (Box<dyn Fn(f64) -> f64>, Vec<Tick>) = match axis {
        ChartAxis::Efficiency => {
            let f = move |v: f64| TOP + plot_h * (1.0 - v.clamp(0.0, 1.0));
            let ticks = [0.0, 0.25, 0.5, 0.75, 1.0].iter().map(|&v| Tick { pos: f(v), label: human::pct(v) }).collect();
            (Box::new(f), ticks)
        }
        ChartAxis::StepTime => {
            let vals = sweeps.iter().flat_map(|(s, _)| s.iter().map(|p| p.step_s.as_secs())).filter(|v| *v > 0.0);
            let (lo, hi) = vals.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
            let (lo, hi) = if lo <= hi { (lo, hi) } else { (1.0, 10.0) };
            let d_lo = lo.log10().floor();
            let mut d_hi = hi.log10().ceil();
            if d_hi <= d_lo {
                d_hi = d_lo + 1.0;
            }
            let f = move |v: f64| {
                let l = v.max(1e-12).log10().clamp(d_lo, d_hi);
                TOP + plot_h * (1.0 - (l - d_lo) / (d_hi - d_lo))
            };
            let mut ticks = Vec::new();
            let mut d = d_lo;
            while d <= d_hi && ticks.len() < 16 {
                let v = 10f64.powf(d);
                ticks.push(Tick { pos: f(v), label: human::decade(v) });
                d += 1.0;
            }
            (Box::new(f), ticks)
        }
    };

    let mut x_ticks = Vec::new();
    let mut n = 1.0;
    while n <= x_max {
        x_ticks.push(Tick { pos: lx(n), label: human::num(n, 0) });
        n *= 2.0;
    }

    let lines = sweeps
        .iter()
        .map(|(sweep, current)| {
            let points: Vec<Point> = sweep
                .iter()
                .map(|p| {
                    let v = value(p, axis);
                    let shown = match axis {
                        ChartAxis::StepTime => human::secs(p.step_s),
                        ChartAxis::Efficiency => human::pct(v),
                    };
                    Point {
                        x: lx(p.x),
                        y: y_of(v),
                        title: format!("{} nodes: {shown}", human::num(p.x, 0)),
                        current: p.x == f64::from(*current),
                    }
                })
                .collect();
            let mut path = String::new();
            for (i, p) in points.iter().enumerate() {
                let _ = write!(path, "{}{},{}", if i == 0 { "M" } else { " L" }, at(p.x), at(p.y));
            }
            Line { path, points }
        })
        .collect();
    LineChart { x_ticks, y_ticks, lines }
}

/// An SVG coordinate, to a tenth of a unit.
fn at(v: f64) -> String {
    human::fixed(v, 1)
}

/// Width of the bar chart's box.
pub const BAR_WIDTH: f64 = 640.0;
/// Height of the bar chart's box (two bars).
pub const BAR_HEIGHT: f64 = 96.0;
const BAR_LABEL: f64 = 28.0;
const BAR_SPAN: f64 = 520.0;

/// The markup inside the bar chart's `<svg viewBox="0 0 BAR_WIDTH BAR_HEIGHT">`: one stacked bar per scenario, on one time
/// scale (the highest end of a step's range spans the bar area), each with its range as a whisker across it and
/// labelled with its step time.
pub fn bars_svg(rows: &[(&str, &StepEstimate)]) -> Html {
    let scale = rows.iter().map(|(_, e)| e.step_range_s[1].as_secs()).fold(0.0, f64::max);
    let mut out = Html::new();
    for (row, (label, e)) in rows.iter().enumerate() {
        let y = 8.0 + row as f64 * 44.0;
        let segs = bar_segments(e, scale, BAR_SPAN);
        let end: f64 = segs.iter().map(|s| s.width).sum();
        html!(out, r#"<text x="0" y="{}" class="bar-label">{}</text>"#, at(y + 20.0), label);
        for s in &segs {
            html!(
                out,
                r#"<rect class="{}" x="{}" y="{}" width="{}" height="28"><title>{}: {}</title></rect>"#,
                s.kind.class(),
                human::fixed(BAR_LABEL + s.x, 2),
                at(y),
                human::fixed(s.width.max(0.5), 2),
                s.kind.label(),
                human::secs(estimator_core::Seconds::new(s.seconds))
            );
        }
        let [lo, hi] =
            e.step_range_s.map(|t| if scale > 0.0 { BAR_LABEL + t.as_secs() / scale * BAR_SPAN } else { BAR_LABEL });
        html!(
            out,
            r#"<g class="bar-range"><title>range {} to {}</title><line x1="{2}" x2="{3}" y1="{4}" y2="{4}"></line><line x1="{2}" x2="{2}" y1="{5}" y2="{6}"></line><line x1="{3}" x2="{3}" y1="{5}" y2="{6}"></line></g>"#,
            human::secs(e.step_range_s[0]),
            human::secs(e.step_range_s[1]),
            human::fixed(lo, 2),
            human::fixed(hi, 2),
            at(y + 14.0),
            at(y + 8.0),
            at(y + 20.0)
        );
        html!(
            out,
            r#"<text x="{}" y="{}" class="bar-value">{}</text>"#,
            at(hi.max(BAR_LABEL + end) + 6.0),
            at(y + 20.0),
            human::secs(e.step_s)
        );
    }
    out
}

/// The markup inside the nodes chart's `<svg viewBox="0 0 WIDTH HEIGHT">`: grid, ticks, axis title, and one
/// line per scenario (classes `line-a`, `line-b`, ... in order).
pub fn nodes_svg(c: &LineChart) -> Html {
    let mut out = Html::new();
    for t in &c.y_ticks {
        html!(
            out,
            r#"<line class="gridline" x1="{0}" x2="{1}" y1="{2}" y2="{2}"></line><text class="tick" x="{3}" y="{4}" text-anchor="end">{5}</text>"#,
            at(LEFT),
            at(WIDTH - RIGHT),
            at(t.pos),
            at(LEFT - 6.0),
            at(t.pos + 4.0),
            t.label,
        );
    }
    for (i, t) in c.x_ticks.iter().enumerate() {
        // The first label starts at the y axis rather than centred on it, clear of the lowest y label beside it (a
        // phone draws both at 22 units).
        html!(
            out,
            r#"<text class="tick" x="{}" y="{}" text-anchor="{}">{}</text>"#,
            at(t.pos),
            at(HEIGHT - BOTTOM + X_LABELS),
            if i == 0 { "start" } else { "middle" },
            t.label
        );
    }
    html!(
        out,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">nodes</text>"#,
        at((WIDTH + LEFT) / 2.0),
        at(HEIGHT - 4.0)
    );
    for (i, l) in c.lines.iter().enumerate() {
        let class = ["line-a", "line-b", "line-c", "line-d"].get(i).copied().unwrap_or("line-d");
        html!(out, r#"<g class="{}"><path d="{}"></path>"#, class, l.path);
        for p in &l.points {
            let (cls, r) = if p.current { ("dot current", 5) } else { ("dot", 3) };
            html!(
                out,
                r#"<circle class="{}" cx="{}" cy="{}" r="{}"><title>{}</title></circle>"#,
                cls,
                at(p.x),
                at(p.y),
                r,
                p.title
            );
        }
        out.push_static("</g>");
    }
    out
}

/// The nodes chart for a page state, as its SVG markup and its table's rows: what the details worker draws when
/// the chart comes into view (boot.js), so none of it weighs on the first load. A side whose form does not read
/// keeps its first-load scenario here; the page marks the chart stale meanwhile.
pub fn nodes_figure(query: &str) -> (Html, Html) {
    let (state, _) = PageState::from_query(query);
    let sweeps: Vec<(Vec<SweepPoint>, u32)> = [(&state.a, crate::share::Side::A), (&state.b, crate::share::Side::B)]
        .into_iter()
        .filter_map(|(form, side)| form.to_scenario().or_else(|_| side.default_form().to_scenario()).ok())
        .map(|s| (node_sweep(&s, state.chart.batch), s.nodes()))
        .collect();
    let lines: Vec<(&[SweepPoint], u32)> = sweeps.iter().map(|(p, n)| (&p[..], *n)).collect();
    let rows = match &sweeps[..] {
        [a, b] => nodes_table_rows(&a.0, &b.0),
        _ => Html::new(),
    };
    (nodes_svg(&nodes_chart(&lines, state.chart.axis)), rows)
}

/// A horizontal gridline and its label at each of [`log_ticks`] from `10^lo` to `10^hi` (`decades`), where `y` places a value;
/// for the details worker's log-log charts (a run's curve, the rental plan).
pub fn log_gridlines(out: &mut Html, decades: (f64, f64), y: impl Fn(f64) -> f64, label: impl Fn(f64) -> String) {
    let at = |v: f64| human::fixed(v, 1);
    for v in log_ticks(decades.0, decades.1) {
        html!(
            out,
            r#"<line class="gridline" x1="{0}" x2="{1}" y1="{2}" y2="{2}"></line><text class="tick" x="{3}" y="{4}" text-anchor="end">{5}</text>"#,
            at(LEFT),
            at(WIDTH - RIGHT),
            at(y(v)),
            at(LEFT - 6.0),
            at(y(v) + 4.0),
            label(v)
        );
    }
}

/// Gridline values between `10^lo` and `10^hi`: 1, 2 and 5 times each power of ten when the range is short (two
/// decades and a half or less, so a plot never has only its two ends labelled), whole decades when it is long.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let steps: &[f64] = if hi - lo <= 2.5 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut out = Vec::new();
    let mut d = lo.floor();
    while d <= hi.ceil() {
        for m in steps {
            let v = m * 10f64.powf(d);
            let l = v.log10();
            if l >= lo - 1e-9 && l <= hi + 1e-9 {
                out.push(v);
            }
        }
        d += 1.0;
    }
    out
}

/// The nodes chart's data as table rows (nodes, A step, A efficiency, B step, B efficiency).
pub fn nodes_table_rows(a: &[SweepPoint], b: &[SweepPoint]) -> Html {
    let mut h = Html::new();
    for (pa, pb) in a.iter().zip(b.iter()).filter(|(pa, pb)| pa.x == pb.x) {
        html!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            human::num(pa.x, 0),
            human::secs(pa.step_s),
            human::pct(pa.scaling_efficiency),
            human::secs(pb.step_s),
            human::pct(pb.scaling_efficiency)
        );
    }
    h
}

/// The bar chart's accessible description.
pub fn bars_description(a: &SideResult, b: &SideResult) -> String {
    let part = |side: Side, r: &SideResult| {
        let e = &r.estimate.step;
        format!(
            "{}: step {}, compute {}, hidden communication {}, exposed communication {}{}{}.",
            side.label(),
            human::secs(e.step_s),
            human::secs(e.compute_s),
            human::secs(e.hidden_comm_s),
            human::secs(e.exposed_comm_s),
            if e.bubble_s.as_secs() > 0.0 {
                format!(", pipeline bubble {}", human::secs(e.bubble_s))
            } else {
                String::new()
            },
            if e.rank_wait_s.as_secs() > 0.0 {
                format!(", wait for the slowest rank {}", human::secs(e.rank_wait_s))
            } else {
                String::new()
            }
        )
    };
    format!("{} {}", part(Side::A, a), part(Side::B, b))
}
