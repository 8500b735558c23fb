// "Check a run" and "Plan a rental": loaded by boot.js when either section comes into view, or at start when the
// URL holds their state (run.* and plan.* pairs). Their forms and results are drawn by the details worker
// (web/src/run_section.rs, web/src/plan_section.rs), escaped there; this file moves their inputs into the URL,
// which the app keeps when it writes its own pairs, and asks the worker again after each change. A plan row's
// A/B button asks the worker for the page with that node in the scenario and hands it to the app (rdma-state).

// "How to read this", the page's footer, below both sections: its text comes with this file, out of the first load.
const assumptions = document.getElementById("assumptions-box");
if (assumptions) {
  assumptions.innerHTML =
    "<ul><li><b>The reference arithmetic (one link per GPU)</b>: a one-link reference for DDP's all-reduce, not a " +
    "bound. A ring all-reduce over many participants moves about 2 × the gradient bytes through each " +
    "participant's link, divided here by one adapter's line rate; no latency, no efficiency loss, no overlap. It " +
    "is shown where a gradient synchronisation crosses the adapters. With several GPUs and adapters per node the " +
    "step can take less: most ring hops stay on NVLink.</li>" +
    "<li><b>At least</b>, beside the communication, is a true bound: the fewest bytes that can cross a node's " +
    "adapters on average for the layout (each collective reduced inside each node first; NCCL's tree sends that " +
    "on two nodes) at the adapters' line rate, with no latency.</li>" +
    "<li><b>Realistic estimate</b>: every collective of the step (gradient buckets, FSDP's gathers, " +
    "tensor-parallel all-reduces, MoE all-to-alls, ...) timed as NCCL runs it at its own size over the links it " +
    "uses; the frameworks' schedule decides what hides behind compute, unless you set the overlap.</li>" +
    "<li>Compute from tokens is 6 × active parameters × tokens ÷ (GPUs × peak dense BF16 × MFU). Every constant " +
    "cites its source in estimator-core; the README compares the model with public measurements.</li>" +
    "<li>Not modelled: congestion from other jobs, a straggling node. Between 64 KiB and 64 MiB a collective is " +
    "less sure (off by a fifth to two fifths at the median on public runs), and the time a fast fabric adds to a " +
    "step is short by more (the README's step replay).</li></ul>";
}

export function start(request) {
  const busy = {};
  const dirty = {};
  // One request per section at a time; a change while one runs asks again when it ends.
  function refresh(sec) {
    const box = document.getElementById(sec + "-result");
    // No result box: the section's form did not load; try it again.
    if (!box) return loadForm(sec);
    dirty[sec] = true;
    if (busy[sec]) return;
    busy[sec] = true;
    dirty[sec] = false;
    request({ [sec]: { form: false } }, "markup")
      .then((r) => {
        box.innerHTML = r.html;
      })
      .catch((err) => {
        box.textContent = "The " + sec + " section could not be computed: " + err.message.replace(/\.$/, "") + ".";
      })
      .finally(() => {
        busy[sec] = false;
        if (dirty[sec]) refresh(sec);
      });
  }
  // The section's inputs into the URL: only what differs from the form's default (data-default, or empty).
  function write(form) {
    const sec = form.dataset.sec;
    const p = new URLSearchParams(location.search);
    // The table's order and "show all" (set by buttons, not inputs) stay.
    for (const k of [...p.keys()]) if (k.startsWith(sec + ".") && k !== "plan.sort" && k !== "plan.all") p.delete(k);
    for (const el of form.querySelectorAll("[name]")) {
      const v = el.type === "checkbox" ? (el.checked ? "1" : "") : el.value;
      const dflt = el.dataset.default || (el.tagName === "SELECT" ? el.options[0].value : "");
      if (v !== "" && v !== dflt) p.set(sec + "." + el.name, v);
    }
    const q = p.toString();
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
    // The share link, and the checked scenario's card (its verdict line), follow the URL.
    window.dispatchEvent(new Event("rdma-url"));
  }
  function onEdit(e) {
    const form = e.target.closest && e.target.closest("[data-sec]");
    if (!form) return;
    write(form);
  }
  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);
  document.addEventListener("click", (e) => {
    // The table's order (its header buttons) and "show all": URL pairs that no input holds.
    const sort = e.target.closest && e.target.closest("[data-sort], [data-set]");
    if (sort) {
      const p = new URLSearchParams(location.search);
      if (sort.dataset.sort) p.set("plan.sort", sort.dataset.sort);
      else p.set(sort.dataset.set, sort.dataset.value);
      history.replaceState(null, "", location.pathname + "?" + p + location.hash);
      window.dispatchEvent(new Event("rdma-url"));
      return;
    }
    const fill = e.target.closest && e.target.closest("[data-fill]");
    if (fill) {
      fill.disabled = true;
      request({ fill: { side: fill.dataset.fill, offer: fill.dataset.offer } }, "fill")
        .then((r) => {
          if (typeof r.query !== "string") throw new Error("the plan has no such row any more");
          history.replaceState(null, "", location.pathname + (r.query ? "?" + r.query : "") + location.hash);
          window.dispatchEvent(new Event("rdma-state"));
          document.getElementById(fill.dataset.fill + "-title")?.scrollIntoView({ block: "nearest" });
        })
        .catch((err) => {
          fill.title = "Not filled: " + err.message;
        })
        .finally(() => {
          fill.disabled = false;
        });
    }
  });
  // The run's own records (traces, Inspector dumps): each file read as a stream of text, gzip through the browser's
  // DecompressionStream, and sent in chunks of about 4 MB, one request at a time: a large trace is never held whole,
  // here or in the worker. The worker keeps what it read until the next selection.
  const CHUNK = 4 << 20;
  async function sendChunk(chunk) {
    const r = await request({ "run-records": chunk }, "markup");
    const status = document.getElementById("run-records");
    if (status) status.innerHTML = r.html;
    // The worker refused the file being read: it says so, and the rest of the file is not read.
    return r.html.includes('data-skip="1"');
  }
  // A new selection stops the one being sent: its chunks would land in the new selection's files.
  let selection = 0;
  async function sendRecords(files) {
    const mine = ++selection;
    let reset = true;
    // No file chosen (the selection cleared): the records read before are dropped.
    if (!files.length) await sendChunk({ name: "", chunk: "", reset, first: false, last: false });
    for (const file of files) {
      let stream = file.stream();
      const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
      if (head[0] === 0x1f && head[1] === 0x8b) stream = stream.pipeThrough(new DecompressionStream("gzip"));
      const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
      let first = true;
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (mine !== selection) {
          reader.cancel();
          return;
        }
        if (value) text += value;
        if (text.length < CHUNK && !done) continue;
        const skip = await sendChunk({ name: file.name, chunk: text, reset, first, last: done });
        if (mine !== selection) return;
        reset = false;
        first = false;
        text = "";
        if (done) break;
        if (skip) {
          reader.cancel();
          await sendChunk({ name: file.name, chunk: "", reset, first, last: true });
          break;
        }
      }
    }
    refresh("run");
  }
  document.addEventListener("change", (e) => {
    const input = e.target;
    if (input.id !== "run-files") return;
    sendRecords([...input.files]).catch((err) => {
      const status = document.getElementById("run-records");
      if (status) status.textContent = "The files could not be read: " + err.message.replace(/\.$/, "") + ".";
    });
  });
  // Any change of the page (a scenario, a section) redraws both results.
  window.addEventListener("rdma-url", () => {
    refresh("run");
    refresh("plan");
  });
  // A section's form; after a failure the next change asks again (refresh finds no result box).
  function loadForm(sec) {
    const box = document.getElementById(sec + "-box");
    if (!box) return;
    request({ [sec]: { form: true } }, "markup")
      .then((r) => {
        box.innerHTML = r.html;
        refresh(sec);
      })
      .catch((err) => {
        box.textContent = "The " + sec + " section could not be drawn: " + err.message.replace(/\.$/, "") + ".";
      });
  }
  for (const sec of ["run", "plan"]) loadForm(sec);
}
