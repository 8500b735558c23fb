//! Driving the built page in headless Chromium: a static file server for `dist/` (std only, on 127.0.0.1), a
//! chromedriver child process, and a WebDriver session (fantoccini). Used by the end-to-end test
//! (`tests/page.rs`) and the page benchmark (`src/bin/page_bench.rs`).

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// The page's build: `$PAGE_DIST`, else `dist/` at the workspace root (`make dist` writes it).
pub fn dist_dir() -> PathBuf {
    std::env::var_os("PAGE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("dist"))
}

/// A static file server for one folder, on an ephemeral port, until dropped. Any path prefix before the file name
/// is accepted under `/sub/` (`/sub/index.html` serves `index.html`), to check the page works under a sub-path.
pub struct StaticServer {
    addr: SocketAddr,
    served: Arc<Mutex<Vec<String>>>,
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

fn serve_one(mut stream: TcpStream, root: &Path, served: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Skip the headers.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = path.strip_prefix("/sub").unwrap_or(path);
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() || rel.ends_with('/') { format!("{rel}index.html") } else { rel.to_string() };
    let file = root.join(&rel);
    let safe = !rel.split('/').any(|p| p == "..");
    match std::fs::read(&file) {
        Ok(body) if safe => {
            if let Ok(mut list) = served.lock() {
                list.push(rel.clone());
            }
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                content_type(&file),
                body.len()
            )?;
            stream.write_all(&body)?;
        }
        _ => {
            let body = b"not found";
            write!(stream, "HTTP/1.1 404 Not Found\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())?;
            stream.write_all(body)?;
        }
    }
    stream.flush()
}

impl StaticServer {
    /// Serves `root`.
    pub fn start(root: PathBuf) -> std::io::Result<StaticServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let served = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&served);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                let log = Arc::clone(&log);
                std::thread::spawn(move || {
                    // A client that hangs up mid-response is not the page's problem.
                    let _ = serve_one(stream, &root, &log);
                });
            }
        });
        Ok(StaticServer { addr, served })
    }

    /// How many files were served since the last `take_served`.
    pub fn served_count(&self) -> usize {
        self.served.lock().map(|l| l.len()).unwrap_or_default()
    }

    /// The files served so far (paths relative to the root, in the order asked, repeats kept), and forgets them.
    pub fn take_served(&self) -> Vec<String> {
        self.served.lock().map(|mut l| std::mem::take(&mut *l)).unwrap_or_default()
    }

    /// `http://127.0.0.1:PORT/` plus `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }
}

/// A chromedriver child process, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts `$CHROMEDRIVER` (default `chromedriver`) on a free port and waits until it listens.
    pub fn start() -> Result<Driver, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| format!("no free port: {e}"))?;
        let exe = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_string());
        let child = Command::new(&exe)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {exe} ({e}); `make setup-browser` installs chromium-driver"))?;
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return Err(format!("{exe} did not listen on port {port} within 20 s"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }

    /// A new headless Chromium session. `extra` are more Chromium flags (`--force-dark-mode`).
    pub async fn session(&self, extra: &[&str]) -> Result<Client, String> {
        self.session_as(extra, None).await
    }

    /// A new headless Chromium session that emulates a phone's viewport of `width` x `height` CSS pixels (a
    /// desktop window cannot be made narrower than about 500 px).
    pub async fn phone_session(&self, width: u32, height: u32) -> Result<Client, String> {
        self.session_as(&[], Some((width, height))).await
    }

    async fn session_as(&self, extra: &[&str], phone: Option<(u32, u32)>) -> Result<Client, String> {
        let profile = std::env::temp_dir().join(format!("page-test-profile-{}-{}", std::process::id(), self.port));
        let _ = std::fs::remove_dir_all(&profile);
        let mut args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            format!("--user-data-dir={}", profile.display()),
        ];
        // 1280x1000 unless the caller sizes the window itself.
        if !extra.iter().any(|a| a.starts_with("--window-size=")) {
            args.push("--window-size=1280,1000".to_string());
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut options = json!({ "args": args });
        if let Some((width, height)) = phone {
            options["mobileEmulation"] =
                json!({ "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "mobile": true } });
        }
        let caps = json!({ "goog:chromeOptions": options });
        let Value::Object(caps) = caps else { return Err("capabilities are an object".into()) };
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .map_err(|e| format!("cannot open a Chromium session: {e}"))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of the element with this id, or an error naming it.
pub async fn text_of(c: &Client, id: &str) -> Result<String, String> {
    c.find(Locator::Id(id)).await.map_err(|e| format!("#{id}: {e}"))?.text().await.map_err(|e| format!("#{id}: {e}"))
}

/// Waits up to 10 s until the element's text satisfies `ok`; returns the last text seen.
pub async fn wait_text(c: &Client, id: &str, ok: impl Fn(&str) -> bool) -> Result<String, String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let t = text_of(c, id).await.unwrap_or_default();
        if ok(&t) {
            return Ok(t);
        }
        if Instant::now() > deadline {
            return Err(format!("#{id} never matched; last text: '{t}'"));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Replaces the text of an input (select all, type), as a user does.
pub async fn type_into(c: &Client, id: &str, text: &str) -> Result<(), String> {
    let el = c.find(Locator::Id(id)).await.map_err(|e| format!("#{id}: {e}"))?;
    el.clear().await.map_err(|e| format!("#{id}: {e}"))?;
    el.send_keys(text).await.map_err(|e| format!("#{id}: {e}"))
}

/// The value property of an input.
pub async fn value_of(c: &Client, id: &str) -> Result<String, String> {
    let el = c.find(Locator::Id(id)).await.map_err(|e| format!("#{id}: {e}"))?;
    Ok(el.prop("value").await.map_err(|e| format!("#{id}: {e}"))?.unwrap_or_default())
}

/// axe-core, the accessibility rules engine: `$AXE_JS`, else `.tools/node_modules/axe-core/axe.min.js`
/// (`scripts/setup.sh browser` installs it from npm).
pub fn axe_source() -> Result<String, String> {
    let path = std::env::var_os("AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/node_modules/axe-core/axe.min.js"));
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e} (run scripts/setup.sh browser)", path.display()))
}

/// Runs axe-core's WCAG 2.1 A and AA rules on the current page; returns one line per violation (and one if axe
/// checked almost nothing).
pub async fn accessibility_violations(c: &Client, axe: &str) -> Result<Vec<String>, String> {
    c.execute(&format!("{axe}\nreturn typeof axe;"), vec![]).await.map_err(|e| format!("loading axe: {e}"))?;
    let found = c
        .execute_async(
            r"const done = arguments[arguments.length - 1];
              axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })
                .then(r => done({ passes: r.passes.length, violations: r.violations.map(v => v.impact + ' ' +
                    v.id + ': ' + v.help + ' (' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ') +
                    ')') }))
                .catch(e => done({ passes: 0, violations: ['axe failed: ' + e] }));",
            vec![],
        )
        .await
        .map_err(|e| format!("running axe: {e}"))?;
    let passes = found["passes"].as_u64().unwrap_or(0);
    let mut violations: Vec<String> = found["violations"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    // A run that checked nothing is a failure too, not a clean page.
    if passes < 10 {
        violations.push(format!("axe passed only {passes} rules: it did not check the page"));
    }
    Ok(violations)
}
