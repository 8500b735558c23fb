//! The page's performance budgets, measured in headless Chromium on the built `dist/`:
//! - first estimate: from navigation start to the page's `first-estimate` performance mark (set right after the
//!   first render, which contains both scenarios' estimates), at most 300 ms;
//! - recompute: from an input event on A's line rate to the last DOM change it causes anywhere in the page (A's
//!   card, the bar chart, the verdict, the recommendations), seen by a MutationObserver; at most 16 ms at p95 with
//!   the first screen in view. Measured again with the nodes chart in view (off the first screen), where the
//!   change also redraws it through the details worker: that time includes the worker's round trip, during which
//!   the page's thread is free, so it is held at 16 ms at its median only.
//! - plan a rental: from an input event on the plan's tokens to the last change of its result (the worker plans
//!   the job on every offer and draws the table and the chart); printed for the record, no budget.
//!
//! Run: `make bench-page` (builds `dist/` first). Prints median, p95 and max; exits 1 if the first estimate's
//! median, the first screen's recompute p95 or the chart's recompute median misses its budget.

use std::time::Duration;

use tests::browser::{Driver, StaticServer, dist_dir, wait_text};

const LOADS: usize = 20;
const RECOMPUTES: usize = 60;
const FIRST_ESTIMATE_BUDGET_MS: f64 = 300.0;
const RECOMPUTE_BUDGET_MS: f64 = 16.0;

/// Sets A's line rate and waits, in the page, for the lower bound to change; returns the elapsed milliseconds.
const RECOMPUTE_JS: &str = r#"
const done = arguments[arguments.length - 1];
const value = arguments[0];
const input = document.getElementById('a-link');
const before = document.getElementById('a-reference').textContent;
let t0 = 0;
let last = -1;
// Each DOM change anywhere in the page (cards, charts, table, recommendations) moves `last`; the page has
// settled when nothing changed for 150 ms.
const obs = new MutationObserver(() => { last = performance.now(); });
obs.observe(document.getElementById('main'), { childList: true, subtree: true, characterData: true, attributes: true });
t0 = performance.now();
input.value = value;
input.dispatchEvent(new Event('input', { bubbles: true }));
setTimeout(() => {
  obs.disconnect();
  const changed = document.getElementById('a-reference').textContent !== before;
  done(changed && last >= 0 ? last - t0 : -1);
}, 150);
"#;

/// Sets the plan's tokens and waits for its result to settle; returns the elapsed milliseconds.
const PLAN_JS: &str = r#"
const done = arguments[arguments.length - 1];
const input = document.getElementById('plan-tokens');
const box = document.getElementById('plan-result');
let last = -1;
const obs = new MutationObserver(() => { last = performance.now(); });
obs.observe(box, { childList: true, subtree: true, characterData: true });
const t0 = performance.now();
input.value = arguments[0];
input.dispatchEvent(new Event('input', { bubbles: true }));
setTimeout(() => { obs.disconnect(); done(last >= 0 ? last - t0 : -1); }, 400);
"#;

fn stats(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95), v[v.len() - 1])
}

async fn measure() -> Result<bool, String> {
    let dist = dist_dir();
    if !dist.join("index.html").exists() {
        return Err(format!("no {}: run `make dist` first", dist.display()));
    }
    let server = StaticServer::start(dist).map_err(|e| e.to_string())?;
    let driver = Driver::start()?;
    let c = driver.session(&[]).await?;

    let mut first = Vec::new();
    for _ in 0..LOADS {
        c.goto("about:blank").await.map_err(|e| e.to_string())?;
        c.goto(&server.url("index.html")).await.map_err(|e| e.to_string())?;
        wait_text(&c, "a-reference", |t| t == "8.96 s").await?;
        let ms = c
            .execute("return performance.getEntriesByName('first-estimate')[0].startTime;", vec![])
            .await
            .map_err(|e| e.to_string())?
            .as_f64()
            .ok_or("no first-estimate mark")?;
        first.push(ms);
    }

    // First with the nodes chart out of view (the page alone), then in view, where a change also redraws it
    // through the details worker: the time to the last DOM change then includes that round trip.
    let mut runs = Vec::new();
    for (scroll, what) in [
        ("window.scrollTo(0, 0); return null;", "the first screen"),
        (
            "document.getElementById('nodes-chart').scrollIntoView(); return null;",
            "nodes chart in view, redrawn by the worker",
        ),
    ] {
        c.execute(scroll, vec![]).await.map_err(|e| e.to_string())?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let mut recompute = Vec::new();
        for i in 0..RECOMPUTES {
            let value = if i % 2 == 0 { "400" } else { "25" };
            let ms = c
                .execute_async(RECOMPUTE_JS, vec![serde_json::json!(value)])
                .await
                .map_err(|e| e.to_string())?
                .as_f64()
                .ok_or("no time")?;
            if ms < 0.0 {
                return Err("the page did not recompute within 2 s".into());
            }
            recompute.push(ms);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        runs.push((what, recompute));
    }
    c.execute("document.getElementById('rental-plan').scrollIntoView(); return null;", vec![])
        .await
        .map_err(|e| e.to_string())?;
    wait_text(&c, "plan-headline", |t| !t.is_empty()).await?;
    let mut plans = Vec::new();
    for i in 0..RECOMPUTES / 3 {
        let value = if i % 2 == 0 { "300B" } else { "1T" };
        let ms = c
            .execute_async(PLAN_JS, vec![serde_json::json!(value)])
            .await
            .map_err(|e| e.to_string())?
            .as_f64()
            .ok_or("no time")?;
        if ms < 0.0 {
            return Err("the plan did not redraw within 400 ms".into());
        }
        plans.push(ms);
    }
    let _ = c.close().await;

    let (f50, f95, fmax) = stats(first);
    println!(
        "first estimate after navigation ({LOADS} loads): median {f50:.1} ms, p95 {f95:.1} ms, max {fmax:.1} ms (budget {FIRST_ESTIMATE_BUDGET_MS} ms)"
    );
    let mut ok = f50 <= FIRST_ESTIMATE_BUDGET_MS;
    for (i, (what, recompute)) in runs.into_iter().enumerate() {
        let (r50, r95, rmax) = stats(recompute);
        // The first run is the first screen's, held at p95; the chart's, through the worker's round trip, is held
        // at its median as before, so a regression there still fails.
        let (budget, within) = if i == 0 {
            (format!("budget {RECOMPUTE_BUDGET_MS} ms at p95"), r95 <= RECOMPUTE_BUDGET_MS)
        } else {
            (format!("off the first screen: {RECOMPUTE_BUDGET_MS} ms at the median"), r50 <= RECOMPUTE_BUDGET_MS)
        };
        println!(
            "recompute after an input ({RECOMPUTES} changes, {what}): median {r50:.2} ms, p95 {r95:.2} ms, max {rmax:.2} ms ({budget})"
        );
        ok &= within;
    }
    let (p50, p95, pmax) = stats(plans);
    println!(
        "plan a rental after an input ({} changes, {} offers, through the worker): median {p50:.1} ms, p95 {p95:.1} ms, max {pmax:.1} ms (no budget)",
        RECOMPUTES / 3,
        estimator_core::offer::OFFERS.len()
    );
    Ok(ok)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    match measure().await {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("page-bench: a budget was missed");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("page-bench: {e}");
            std::process::exit(2);
        }
    }
}
