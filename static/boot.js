// Starts the page without an inline script (the CSP allows only files from this origin): Trunk writes the hashed
// names of the wasm-bindgen glue and the wasm on this script's own tag.
const tag = document.querySelector("script[data-wasm]");
// Embed mode (?embed=1, as the app reads it) hides the page chrome that lives in index.html.
const embed = new URLSearchParams(location.search).get("embed");
if (embed !== null && ["1", "true", "yes", ""].includes(embed)) {
  document.documentElement.classList.add("embed");
}
// "Your node": a chosen, dropped or pasted file goes to the report worker (started on first use, see
// ARCHITECTURE.md), which answers with escaped status HTML and, when it changed a scenario, the new URL query.
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
  status.textContent = "Reading " + (name || "the pasted text") + "…";
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
async function loadFile(file) {
  if (!file) return;
  // Over 16 MiB is refused unread; the worker says why.
  const text = file.size > 16 << 20 ? "" : await file.text();
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
