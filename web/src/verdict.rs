//! The answer in one line, above the two cards: whether each job fits, then which step is shorter and by how much
//! when A and B run the same job (otherwise what differs), the one-link reference where a gradient sync crosses the
//! adapters, and the slower side's recommendation.

use estimator_core::Seconds;
use estimator_core::human;
use estimator_core::sweep::job_differences;

use crate::render::recommendation_line;
use crate::result::SideResult;
use crate::share::Side;

/// The verdict line, from the estimates as they are. A job that does not fit comes first; a step ratio is given
/// only between equal work that both sides can run ([`job_differences`]: the same model, gradients and tokens per
/// step).
pub fn verdict(a: &SideResult, b: &SideResult) -> String {
    let (ea, eb) = (&a.estimate, &b.estimate);
    let (sa, sb) = (ea.step.step_s.as_secs(), eb.step.step_s.as_secs());
    let mut head = String::new();
    let mut refs = String::new();
    for (n, e) in [("A", ea), ("B", eb)] {
        if !e.memory.fits {
            let how = if e.memory.may_fit { " may not fit" } else { " does not fit" };
            head = head + n + how + " in its GPUs' memory. ";
        }
        if e.reference_applies {
            let sep = if refs.is_empty() { " (one-link reference for DDP's all-reduce: " } else { ", " };
            refs = refs + sep + n + " " + &human::secs(e.reference_lower_bound.time_s);
        }
    }
    if !refs.is_empty() {
        refs.push(')');
    }
    let steps = format!("A {}, B {}", human::secs(ea.step.step_s), human::secs(eb.step.step_s));
    // A job that cannot run, or two unequal jobs, have steps but no ratio worth a verdict.
    let differ = job_differences(&a.scenario, &b.scenario);
    if !head.is_empty() || !differ.is_empty() {
        let jobs = if differ.is_empty() {
            String::new()
        } else {
            format!("A and B run different jobs (they differ in {}). ", differ.join(", "))
        };
        return format!("{head}{jobs}Their steps, {steps}, are not compared.");
    }
    if (sa - sb).abs() <= 1e-9 * sa.max(sb) {
        return format!("{head}A and B take the same step, {}{refs}.", human::secs(ea.step.step_s));
    }
    if (sa - sb).abs() < 0.005 * sa.max(sb) {
        return format!("{head}A and B take about the same step, {steps}{refs}.");
    }
    let (fast, slow, slow_r) = if sb < sa { ("B", "A", a) } else { ("A", "B", b) };
    let (f, s) = (sa.min(sb), sa.max(sb));
    // A ratio near 1 reads as a share ("3% shorter"), never as "1× shorter".
    let by = if s < 1.1 * f { human::pct((s - f) / s) } else { format!("{}×", human::num(s / f.max(1e-12), 2)) };
    format!(
        "{head}{fast}'s step is {by} shorter than {slow}'s: {} against {}{refs}. {}",
        human::secs(Seconds::new(f)),
        human::secs(Seconds::new(s)),
        recommendation_line(if slow == "A" { Side::A } else { Side::B }, slow_r)
    )
}
