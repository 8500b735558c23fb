// Starts the page without an inline script (the CSP allows only files from this origin): Trunk writes the hashed
// names of the wasm-bindgen glue and the wasm on this script's own tag.
const tag = document.querySelector("script[data-wasm]");
// Embed mode (?embed=1, as the app reads it) hides the page chrome that lives in index.html.
const embed = new URLSearchParams(location.search).get("embed");
if (embed !== null && ["1", "true", "yes", ""].includes(embed)) {
  document.documentElement.classList.add("embed");
}
// "Your node": a chosen, dropped or pasted file goes to the details worker (started on first use, see
// ARCHITECTURE.md), which answers with escaped status HTML and, when it changed a scenario, the new URL query.
// Requests go one after another, each with the URL as the previous one left it, and each answer comes back with
// its request's id: two quick loads both land.
let worker = null;
let nextId = 0;
let queue = Promise.resolve();
const pending = new Map();
function reportWorker() {
  if (!worker) {
    // The styles of all the worker draws, outside the first load.
    if (!document.getElementById("sections-css")) {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = "sections.css";
      css.id = "sections-css";
      document.head.appendChild(css);
    }
    worker = new Promise((resolve, reject) => {
      const w = new Worker("details-worker-loader.js");
      w.onerror = (e) => {
        // A later request tries a new worker; this one is reported as it failed.
        worker = null;
        reject(new Error(e.message || "the details worker did not start"));
      };
      w.onmessage = (e) => {
        if (e.data === "ready") {
          w.onmessage = (m) => {
            const done = pending.get(m.data && m.data.id);
            if (done) {
              pending.delete(m.data.id);
              done(m.data);
            }
          };
          resolve(w);
        }
      };
    });
  }
  return worker;
}
// One request to the worker (web/src/protocol.rs: `"nodes"`, `{ load: {...} }`), with the URL's query, and its reply
// (`{kind, ...}`). A reply of another kind than `kinds` (a refusal, from a worker of another version) rejects.
async function request(req, ...kinds) {
  const w = await reportWorker();
  const id = ++nextId;
  const { reply } = await new Promise((resolve) => {
    pending.set(id, resolve);
    w.postMessage({ id, query: location.search, request: req });
  });
  if (!reply || !kinds.includes(reply.kind)) {
    // The refusal's text, its markup and entities read by the browser (never inserted).
    const why =
      reply && reply.kind === "refused"
        ? new DOMParser().parseFromString(reply.html, "text/html").body.textContent
        : "no answer";
    throw new Error(why);
  }
  return reply;
}
async function send(message) {
  const status = document.getElementById("report-status");
  try {
    // A status, the fleet's markup, or a refusal: each is markup for the status area.
    const reply = await request(message, "status", "markup", "refused");
    status.innerHTML = reply.html;
    if (typeof reply.query === "string") {
      const q = reply.query ? "?" + reply.query : "";
      history.replaceState(null, "", location.pathname + q + location.hash);
      window.dispatchEvent(new Event("rdma-state"));
    }
  } catch (err) {
    status.textContent = "The report reader could not start in this browser (" + err.message + ").";
  }
}
function ask(message, reading) {
  document.getElementById("report-status").textContent = reading;
  queue = queue.then(() => send(message));
  return queue;
}
function loadReport(text, name, size) {
  const side = document.getElementById("report-side").value;
  return ask({ load: { side, name, size, text } }, "Reading " + (name || "the pasted text") + "…");
}
// One file fills a scenario; several are a fleet of reports (probe-cli fleet's table) or nccl-tests runs that the
// worker fits a profile of the cluster to, for the chosen scenario's hardware (probe-cli calibrate's).
async function loadFiles(files) {
  if (!files || !files.length) return;
  if (files.length === 1) {
    const file = files[0];
    // Over 16 MiB is refused unread; the worker says why.
    const text = file.size > 16 << 20 ? "" : await file.text();
    return loadReport(text, file.name, file.size);
  }
  // A run is at most 16 MiB and all of them 64 MiB: a file past either is passed unread with its size, and the
  // worker says so; at most 4096.
  let room = 64 << 20;
  const list = [];
  for (const f of [...files].slice(0, 4096)) {
    const read = f.size <= 16 << 20 && f.size <= room;
    if (read) room -= f.size;
    list.push({ name: f.name, size: f.size, text: read ? await f.text() : "" });
  }
  const side = document.getElementById("report-side").value;
  return ask({ fleet: { side, files: list } }, "Reading " + list.length + " files…");
}
document.addEventListener("change", (e) => {
  if (e.target.id === "report-file") {
    loadFiles(e.target.files);
    e.target.value = "";
  }
});
// The nodes chart is drawn by the details worker (estimator-core's sweep, chart::nodes_figure) when it comes into
// view, and again after each change while it is in view; in embed mode it is hidden and never drawn.
let chartDirty = true;
let chartVisible = false;
let chartBusy = false;
function drawNodes() {
  const svg = document.getElementById("nodes-chart");
  const rows = document.getElementById("nodes-table");
  if (!svg || !rows || !chartVisible || !chartDirty || chartBusy) return;
  chartDirty = false;
  chartBusy = true;
  request("nodes", "nodes")
    .then((r) => {
      svg.innerHTML = r.svg;
      rows.innerHTML = r.rows;
    })
    .catch((err) => {
      // Not retried at once (a worker that cannot start would fail again in a busy loop); the next change of
      // the inputs tries again.
      const cell = document.createElement("td");
      cell.colSpan = 5;
      cell.textContent = "The chart could not be drawn: " + err.message + ".";
      rows.replaceChildren(document.createElement("tr"));
      rows.firstChild.appendChild(cell);
    })
    .finally(() => {
      chartBusy = false;
      drawNodes();
    });
}
// Calls `then(visible)` when `el` comes into view or leaves it (at once with true where the browser cannot tell).
function watch(el, then) {
  if (!el) return;
  if (!("IntersectionObserver" in window)) return then(true);
  new IntersectionObserver((entries) => then(entries.some((e) => e.isIntersecting)), { rootMargin: "200px" }).observe(
    el,
  );
}
function watchNodes() {
  watch(document.getElementById("nodes-chart"), (v) => {
    chartVisible = v;
    drawNodes();
  });
}
// "Check a run" and "Plan a rental" (static/sections.js): loaded when one comes into view, or at once when the URL
// holds their state; never in embed mode, which hides them.
let sections = null;
function loadSections(v) {
  if (v && !sections && !document.documentElement.classList.contains("embed")) {
    sections = import("./sections.js").then((m) => m.start(request));
  }
}
// Each side's traffic table, layout advice and "Check a run" verdict line are drawn by the details worker too
// (render::details: the advice estimates the step once per sync strategy, kept out of the first load). The first
// screen does not wait for it: they are drawn once the user opens a traffic table or the layout advice (a
// <details class="worker-details">), or when the URL holds a checked run, and again after each change from then
// on; the compact embed mode shows none of them and never starts the worker for them.
let detailsWanted = false;
let detailsDirty = true;
let detailsBusy = false;
document.addEventListener(
  "toggle",
  (e) => {
    if (e.target.classList && e.target.classList.contains("worker-details") && e.target.open && !detailsWanted) {
      detailsWanted = true;
      drawDetails();
    }
  },
  true,
);
function drawDetails() {
  const ids = ["a-verdict-box", "a-traffic-box", "a-layout", "b-verdict-box", "b-traffic-box", "b-layout"];
  const boxes = ids.map((id) => document.getElementById(id));
  const compact = document.documentElement.classList.contains("embed");
  detailsWanted = detailsWanted || /[?&]run\./.test(location.search);
  if (compact || !detailsWanted || boxes.some((b) => !b) || !detailsDirty || detailsBusy) return;
  detailsDirty = false;
  detailsBusy = true;
  request("details", "details")
    .then((r) => {
      r.sides.flatMap((s) => [s.verdict, s.traffic, s.layout]).forEach((html, i) => {
        boxes[i].innerHTML = html;
      });
    })
    .catch((err) => {
      // Not retried at once; the next change of the inputs tries again.
      boxes[2].textContent = boxes[5].textContent = "The layout advice could not be computed: " + err.message + ".";
    })
    .finally(() => {
      detailsBusy = false;
      drawDetails();
    });
}
// "Share and embed": the link is the page's own URL (the app keeps it in step with the inputs); the embed code is
// that URL with embed=1 in an iframe, and the script that fits the iframe to its content.
function shareFields() {
  const link = document.getElementById("share-link");
  const code = document.getElementById("embed-code");
  if (!link || !code) return;
  const base = location.origin + location.pathname;
  const q = location.search.replace(/^\?/, "");
  link.value = base + (q ? "?" + q : "");
  const embed = base + "?" + (q ? q + "&embed=1" : "embed=1");
  const dir = base.slice(0, base.lastIndexOf("/") + 1);
  code.value =
    '<iframe src="' + embed.replace(/&/g, "&amp;").replace(/"/g, "&quot;") +
    '" title="RDMA step-time estimate" width="100%" height="640" loading="lazy"></iframe>\n' +
    '<script src="' + dir.replace(/"/g, "&quot;") + 'embed-resize.js" defer></' + "script>";
}
function copy(id, what) {
  document.getElementById(id).select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch (_) {
    ok = false;
  }
  document.getElementById("share-status").textContent = ok
    ? "Copied the " + what + "."
    : "The browser refused the clipboard: the " + what + " is selected, copy it with Ctrl+C.";
}
window.addEventListener("rdma-url", () => {
  shareFields();
  chartDirty = true;
  drawNodes();
  detailsDirty = true;
  drawDetails();
});
// The verdict line changes with each keystroke and is not a live region: a screen reader hears it (#said) once a
// field is left or a button pressed, after the app has drawn what that changed.
function say() {
  setTimeout(() => {
    const v = document.getElementById("verdict");
    const said = document.getElementById("said");
    if (v && said && said.textContent !== v.textContent) said.textContent = v.textContent;
  });
}
document.addEventListener("change", say);
// A report loaded or a plan row filled changes the scenario once the worker has answered (rdma-state).
window.addEventListener("rdma-state", say);
document.addEventListener("click", (e) => {
  if (e.target.closest && e.target.closest("button")) say();
  if (e.target.id === "copy-link") {
    copy("share-link", "link");
  } else if (e.target.id === "copy-embed") {
    copy("embed-code", "embed code");
  } else if (e.target.id === "report-apply") {
    loadReport(document.getElementById("report-text").value, null, null);
  } else if (e.target.id === "report-offer") {
    e.target.disabled = true;
    ask("offer", "Applying…");
  }
});
// Embedded in another page: tell it the content's height, so its iframe can fit it (static/embed-resize.js).
if (document.documentElement.classList.contains("embed") && window.parent !== window && "ResizeObserver" in window) {
  let last = 0;
  // The body's own height: the root's scrollHeight never drops below the frame's viewport, so it could only grow.
  new ResizeObserver(() => {
    const cs = getComputedStyle(document.body);
    const height = Math.ceil(
      document.body.getBoundingClientRect().height + parseFloat(cs.marginTop) + parseFloat(cs.marginBottom),
    );
    if (height !== last) {
      last = height;
      window.parent.postMessage({ type: "rdma-step-estimator:height", height }, "*");
    }
  }).observe(document.body);
}
for (const type of ["dragover", "drop"]) {
  document.addEventListener(type, (e) => {
    if (!e.target.closest || !e.target.closest("#node-report")) return;
    e.preventDefault();
    if (type === "drop") loadFiles(e.dataTransfer.files);
  });
}
try {
  const glue = await import(tag.dataset.js);
  await glue.default({ module_or_path: tag.dataset.wasm });
  shareFields();
  watchNodes();
  drawDetails();
  loadSections(/[?&](run|plan)\./.test(location.search));
  for (const id of ["run-box", "plan-box"]) watch(document.getElementById(id), loadSections);
} catch (err) {
  const app = document.getElementById("app");
  if (app) {
    app.textContent = "The estimator could not start in this browser (" + err + "). It needs WebAssembly.";
  }
  throw err;
}
