// Starts the page without an inline script (the CSP allows only files from this origin): Trunk writes the hashed
// names of the wasm-bindgen glue and the wasm on this script's own tag.
const tag = document.querySelector("script[data-wasm]");
// Embed mode (?embed=1, as the app reads it) hides the page chrome that lives in index.html.
const embed = new URLSearchParams(location.search).get("embed");
if (embed !== null && ["1", "true", "yes", ""].includes(embed)) {
  document.documentElement.classList.add("embed");
}
// "Your node" (static in index.html): a chosen, dropped or pasted report goes to the report worker, which the
// page starts the first time it is needed (it is not part of the first load). The worker checks the size, the
// JSON and the fields with estimator-core, and answers with the status to show (escaped HTML) and, when it filled
// a scenario, the page's new URL query; the page then re-reads its state from the URL ("rdma-state").
let worker = null;
function reportWorker() {
  if (!worker) {
    worker = new Promise((resolve, reject) => {
      const w = new Worker("report-worker_loader.js");
      w.onerror = (e) => reject(new Error(e.message || "the report worker did not start"));
      w.onmessage = (e) => {
        if (e.data === "ready") resolve(w);
      };
    });
  }
  return worker;
}
async function loadReport(text, name, size) {
  const status = document.getElementById("report-status");
  const side = document.getElementById("report-side").value;
  status.textContent = "Reading " + (name || "the pasted report") + "…";
  try {
    const w = await reportWorker();
    const reply = await new Promise((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ query: location.search, side, name, size, text });
    });
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
const MAX_REPORT_BYTES = 1 << 20;
async function loadFile(file) {
  if (!file) return;
  // Over 1 MiB is refused unread (the worker says why): a report is about 30 KB.
  const text = file.size > MAX_REPORT_BYTES ? "" : await file.text();
  loadReport(text, file.name, file.size);
}
document.addEventListener("change", (e) => {
  if (e.target.id === "report-file") {
    loadFile(e.target.files[0]);
    e.target.value = "";
  }
});
document.addEventListener("click", (e) => {
  if (e.target.id === "report-apply") {
    loadReport(document.getElementById("report-text").value, null, null);
  }
});
for (const type of ["dragover", "drop"]) {
  document.addEventListener(type, (e) => {
    if (!e.target.closest || !e.target.closest("#node-report")) return;
    e.preventDefault();
    if (type === "drop") loadFile(e.dataTransfer.files[0]);
  });
}
try {
  const glue = await import(tag.dataset.js);
  await glue.default({ module_or_path: tag.dataset.wasm });
} catch (err) {
  const app = document.getElementById("app");
  if (app) {
    app.textContent = "The estimator could not start in this browser (" + err + "). It needs WebAssembly.";
  }
  throw err;
}
