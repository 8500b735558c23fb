//! "Check a run"'s view of the run's own records: per communicator and size band, the bus bandwidth measured against
//! the model's (a table, and a chart per communicator), and a trace's communication per step against the model's.
//! Text from the files (communicator names, process group descriptions) is escaped by `html!`.

use estimator_core::human;
use estimator_core::run_check::TraceComparison;
use estimator_core::run_collectives::{CollectivesCheck, size_label};

use crate::curve::{Line, lines_figure};
use crate::html;
use crate::html::Html;

/// The most communicators drawn as charts (the slowest first, as the check orders them).
const MAX_CHARTS: usize = 4;

/// The table of groups and bands, the charts, the straggler and what the records cannot say.
pub fn collectives(cc: &CollectivesCheck) -> Html {
    let mut h = Html::new();
    h.push_static(
        "<h3>The run's collectives against the model</h3><p class=\"fine\">Bus bandwidth per GPU as nccl-tests \
         computes it (size over time, times the collective's factor), the median of the calls in each size band; \
         expected: the model's for a communicator of that shape on this scenario's hardware; share = measured / \
         expected; the floor is what healthy public runs clear at that size.</p>",
    );
    h.push_static(
        "<div class=\"table-scroll\"><table class=\"run-collectives\" id=\"run-collectives\"><thead><tr><th scope=\"col\">Communicator</th>\
         <th scope=\"col\">Where</th><th scope=\"col\">Collective</th><th scope=\"col\">Sizes</th>\
         <th scope=\"col\">Calls</th><th scope=\"col\">Measured, GB/s</th><th scope=\"col\">Expected, GB/s</th>\
         <th scope=\"col\">Share</th><th scope=\"col\">Floor, GB/s</th><th scope=\"col\">Reads</th></tr></thead><tbody>",
    );
    for g in &cc.groups {
        let name = match &g.label {
            Some(l) => format!("{l} ({})", g.comm),
            None => g.comm.clone(),
        };
        for b in &g.bands {
            let sizes = match b.to_bytes {
                Some(to) => format!("{} to {}", size_label(b.from_bytes), size_label(to)),
                None => format!("from {}", size_label(b.from_bytes)),
            };
            html!(
                h,
                "<tr data-verdict=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                b.status.name(),
                name,
                g.shape.place(),
                g.op.name(),
                sizes,
                b.calls,
                human::num(b.measured_busbw_gbs, 1),
                human::num(b.expected_busbw_gbs, 1),
                human::pct(b.ratio),
                human::num(b.floor_busbw_gbs, 1),
                b.status.name()
            );
        }
    }
    h.push_static("</tbody></table></div><ul class=\"run-groups\" id=\"run-groups\">");
    for g in &cc.groups {
        html!(h, "<li data-verdict=\"{}\"><b>{}</b>: {}</li>", g.verdict.name(), g.verdict.name(), g.text);
    }
    h.push_static("</ul>");
    for (i, g) in cc.groups.iter().filter(|g| !g.sizes.is_empty()).take(MAX_CHARTS).enumerate() {
        let measured: Vec<(f64, f64)> = g.sizes.iter().map(|p| (p.bytes, p.measured_busbw_gbs)).collect();
        let model = g.model_curve.clone();
        let what = format!("{} on {} bus bandwidth", g.op.name(), g.label.as_deref().unwrap_or(&g.comm));
        h.push(&lines_figure(
            &format!("run-curve-{i}"),
            &what,
            &[
                Line { class: "line-measured", label: "measured", points: measured },
                Line { class: "line-model", label: "model", points: model },
            ],
        ));
    }
    if let Some(st) = &cc.straggler {
        html!(h, "<p class=\"run-straggler\" id=\"run-straggler\"><b>Straggler</b>: {}.</p>", st.text);
    }
    for l in &cc.limits {
        html!(h, "<p class=\"fine\">Note: {}.</p>", l);
    }
    h
}

/// A trace's steps: measured communication, exposed and hidden, against the model's.
pub fn trace(t: &TraceComparison) -> Html {
    let s = |x: Option<f64>| x.map_or_else(|| "?".to_string(), |v| human::secs(estimator_core::Seconds::new(v)));
    let mut h = Html::new();
    html!(
        h,
        "<h3>The trace's steps</h3><table class=\"run-figures\" id=\"run-trace\"><tbody>\
         <tr><th scope=\"row\">measured</th><td>communication {} per step = exposed {} + hidden {} ({} hidden): the median step of {}</td></tr>\
         <tr><th scope=\"row\">the model</th><td>communication {} = exposed {} + hidden {} ({} hidden)</td></tr>\
         <tr><th scope=\"row\">step</th><td>{} on the CPU; compute {} (the step less its exposed communication)</td></tr>\
         </tbody></table>",
        s(t.comm_s),
        s(t.exposed_comm_s),
        s(t.hidden_comm_s),
        t.hidden_share.map_or_else(|| "?".to_string(), human::pct),
        human::plural(t.steps as u64, "step"),
        s(Some(t.expected_comm_s)),
        s(Some(t.expected_exposed_comm_s)),
        s(Some(t.expected_comm_s - t.expected_exposed_comm_s)),
        human::pct(t.expected_hidden_share),
        s(t.step_s),
        s(t.compute_s)
    );
    h
}
