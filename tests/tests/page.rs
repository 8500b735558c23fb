//! End to end: the Trunk-built `dist/` in headless Chromium through chromedriver.
//!
//! Ignored by a plain `cargo test`, since it needs `dist/` and chromedriver; `make e2e` (part of `make test`)
//! builds the page and runs it with `--ignored`. Screenshots are saved under `target/page-screenshots/`.

#![allow(missing_docs)]

use std::path::PathBuf;

use fantoccini::{Client, Locator};
use tests::browser::{
    Driver, StaticServer, accessibility_violations, axe_source, dist_dir, text_of, type_into, value_of, wait_text,
};

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("target").join("page-screenshots");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

async fn save_screenshot(c: &Client, name: &str) -> Result<PathBuf, String> {
    let png = c.screenshot().await.map_err(|e| format!("screenshot: {e}"))?;
    let path = screenshots().join(name);
    std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Resizes the window to the page's full height so the screenshot shows all of it.
async fn fit_height(c: &Client, width: u32) -> Result<(), String> {
    c.set_window_size(width, 1000).await.map_err(|e| e.to_string())?;
    let h = c
        .execute("return document.documentElement.scrollHeight;", vec![])
        .await
        .map_err(|e| e.to_string())?
        .as_u64()
        .unwrap_or(1000);
    c.set_window_size(width, u32::try_from(h.min(8000)).unwrap_or(8000) + 120).await.map_err(|e| e.to_string())
}

async fn js(c: &Client, script: &str) -> Result<serde_json::Value, String> {
    c.execute(script, vec![]).await.map_err(|e| format!("{script}: {e}"))
}

async fn run(c: &Client, server: &StaticServer) -> Result<(), String> {
    // 1. First load answers the reference question, with nothing fetched from anywhere else.
    c.goto(&server.url("index.html")).await.map_err(|e| e.to_string())?;
    wait_text(c, "a-lower-bound", |t| t == "8.96 s").await?;
    assert_eq!(text_of(c, "b-lower-bound").await?, "0.56 s");
    let card = text_of(c, "a-title").await?;
    assert!(card.contains("25 Gb/s"), "{card}");
    // Rendered text (WebDriver applies CSS, such as the kickers' upper case).
    let body = text_of(c, "main").await?.to_lowercase();
    for part in ["14 GB", "28 GB", "3.125 GB/s", "50 GB/s", "Realistic estimate", "Compute"] {
        assert!(body.contains(&part.to_lowercase()), "the first view shows '{part}'");
    }
    let foreign = js(
        c,
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin));",
    )
    .await?;
    assert_eq!(foreign, serde_json::json!([]), "the page requests nothing from another origin");
    let violations = accessibility_violations(c, &axe_source()?).await?;
    assert!(violations.is_empty(), "axe-core (WCAG 2.1 A/AA) finds: {violations:#?}");
    fit_height(c, 1280).await?;
    let shot = save_screenshot(c, "default.png").await?;
    println!("screenshot of the default view: {}", shot.display());

    // 2. At 375 px nothing overflows sideways.
    c.set_window_size(375, 900).await.map_err(|e| e.to_string())?;
    let overflow = js(c, "return document.documentElement.scrollWidth - document.documentElement.clientWidth;").await?;
    assert!(overflow.as_i64().unwrap_or(1) <= 0, "horizontal overflow at 375 px: {overflow}");
    fit_height(c, 375).await?;
    save_screenshot(c, "narrow-375.png").await?;
    c.set_window_size(1280, 1000).await.map_err(|e| e.to_string())?;

    // 3. A's line rate to 400 makes the lower bounds equal; the fabric too makes the whole steps equal.
    type_into(c, "a-link", "400").await?;
    wait_text(c, "a-lower-bound", |t| t == "0.56 s").await?;
    assert_eq!(text_of(c, "b-lower-bound").await?, "0.56 s");
    c.find(Locator::Id("a-fabric"))
        .await
        .map_err(|e| e.to_string())?
        .select_by_value("infiniband")
        .await
        .map_err(|e| e.to_string())?;
    let b_step = text_of(c, "b-step").await?;
    wait_text(c, "a-step", |t| t == b_step).await?;
    wait_text(c, "verdict", |t| t.contains("equal")).await?;

    // 4. A bad value shows the model's error next to the field, keeps the last result, and the page stays up.
    type_into(c, "a-params", "-5").await?;
    let err = wait_text(c, "a-params-error", |t| !t.is_empty()).await?;
    assert!(err.contains("at least 0"), "{err}");
    assert_eq!(text_of(c, "a-lower-bound").await?, "0.56 s", "the last valid result stays");
    type_into(c, "a-nodes", "1e9").await?;
    let err = wait_text(c, "a-nodes-error", |t| !t.is_empty()).await?;
    assert!(!err.is_empty());
    type_into(c, "a-params", "70B").await?;
    type_into(c, "a-nodes", "4").await?;
    wait_text(c, "a-lower-bound", |t| t == "5.60 s").await?;
    assert_eq!(text_of(c, "a-params-error").await?, "");

    // 5. The copied link restores the changed scenario in a fresh load.
    let link = value_of(c, "share-link").await?;
    assert!(link.contains("a.nodes=4") && link.contains("a.params=70B"), "{link}");
    let a_step = text_of(c, "a-step").await?;
    c.goto("about:blank").await.map_err(|e| e.to_string())?;
    c.goto(&link).await.map_err(|e| e.to_string())?;
    wait_text(c, "a-lower-bound", |t| t == "5.60 s").await?;
    assert_eq!(value_of(c, "a-nodes").await?, "4");
    assert_eq!(text_of(c, "a-step").await?, a_step, "the link gives the same estimate");

    c.find(Locator::Id("copy-link")).await.map_err(|e| e.to_string())?.click().await.map_err(|e| e.to_string())?;
    let status = wait_text(c, "share-status", |t| !t.is_empty()).await?;
    assert!(status.contains("link"), "the copy button reports what happened: {status}");

    // 6. Embed mode: no page chrome, the answer still there; the embed code points at it.
    let snippet = value_of(c, "embed-code").await?;
    assert!(snippet.starts_with("<iframe") && snippet.contains("embed=1"), "{snippet}");
    c.goto(&server.url("index.html?embed=1")).await.map_err(|e| e.to_string())?;
    wait_text(c, "a-lower-bound", |t| t == "8.96 s").await?;
    let chrome = js(c, "return getComputedStyle(document.querySelector('.masthead')).display;").await?;
    assert_eq!(chrome, "none", "no header in embed mode");
    let share = c.find(Locator::Id("share-link")).await.map_err(|e| e.to_string())?;
    assert!(!share.is_displayed().await.map_err(|e| e.to_string())?, "no share section in embed mode");
    let open = c.find(Locator::Css(".embed-foot a")).await.map_err(|e| e.to_string())?;
    assert!(open.is_displayed().await.map_err(|e| e.to_string())?, "embed mode links to the full calculator");
    save_screenshot(c, "embed.png").await?;

    // 7. The example documentation page embeds it between paragraphs.
    c.goto(&server.url("embed-example.html")).await.map_err(|e| e.to_string())?;
    c.find(Locator::Css("iframe")).await.map_err(|e| e.to_string())?.enter_frame().await.map_err(|e| e.to_string())?;
    wait_text(c, "b-lower-bound", |t| t == "0.56 s").await?;
    c.enter_parent_frame().await.map_err(|e| e.to_string())?;

    // 8. Under a sub-path (relative asset URLs).
    c.goto(&server.url("sub/index.html?b.link=100")).await.map_err(|e| e.to_string())?;
    wait_text(c, "b-lower-bound", |t| t == "2.24 s").await?;
    Ok(())
}

async fn dark(c: &Client, server: &StaticServer) -> Result<(), String> {
    c.goto(&server.url("index.html")).await.map_err(|e| e.to_string())?;
    wait_text(c, "a-lower-bound", |t| t == "8.96 s").await?;
    let dark = js(c, "return matchMedia('(prefers-color-scheme: dark)').matches;").await?;
    assert_eq!(dark, true, "the session prefers dark");
    let bg = js(c, "return getComputedStyle(document.body).backgroundColor;").await?;
    assert_eq!(bg, "rgb(15, 20, 27)", "the dark scheme applies");
    let violations = accessibility_violations(c, &axe_source()?).await?;
    assert!(violations.is_empty(), "axe-core (WCAG 2.1 A/AA), dark scheme, finds: {violations:#?}");
    fit_height(c, 1280).await?;
    save_screenshot(c, "dark.png").await?;
    Ok(())
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs dist/ (trunk build) and chromedriver: run `make e2e`"]
async fn the_built_page_in_chromium() {
    let dist = dist_dir();
    assert!(dist.join("index.html").exists(), "no {}: run `make dist` first", dist.display());
    let server = StaticServer::start(dist).expect("static server");
    let driver = Driver::start().expect("chromedriver");

    let c = driver.session(&[]).await.expect("session");
    let result = run(&c, &server).await;
    if result.is_err() {
        let _ = save_screenshot(&c, "failure.png").await;
    }
    let _ = c.close().await;
    result.expect("the page works end to end");

    let c = driver.session(&["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]).await.expect("session");
    let result = dark(&c, &server).await;
    let _ = c.close().await;
    result.expect("dark scheme");
}
