// Trunk's post_build step (scripts/post-build.cjs), after minify-js.cjs: optimises the page's wasm without the stream adapters
// that leptos's `csr` feature brings in through server_fn and wasm-streams (`IntoUnderlyingSource`,
// `IntoUnderlyingByteSource`, `IntoUnderlyingSink`). wasm-bindgen exports them, so wasm-opt keeps them and all they
// reach (futures, promises, their JavaScript classes' entry points), although the page never makes a server call
// nor builds a stream. Their exports are removed here, then wasm-opt runs as Trunk would have (index.html gives the
// page `data-wasm-opt="0"`): 1.4 KB lighter gzipped on issue 39's page (138,240 B against 136,804 B). The glue's
// classes stay, never constructed. The details worker's wasm, outside the first load, is left to Trunk.
//
// wasm-opt -Os with low memory unused: 138,305 B gzipped against -Oz's 139,224 on the same build (issue 39's page).
// Rust's wasm puts its 1 MiB stack first and its data at 1 MiB, so the lowest 1 KiB is only reached by a stack that
// has already overflowed. Release builds only, like Trunk's own wasm-opt.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const { staging, root, sri } = require("./staging.cjs");

// binaryen 132 from npm (scripts/setup.sh web): Debian's binaryen 108 produces a blank page (trunk.toml).
const wasmOpt = path.join(root, ".tools/node_modules/.bin/wasm-opt");
const DROPPED = /^(__wbg_)?intounderlying(bytesource|source|sink)_/;

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= bytes.length || shift > 35) throw new Error("a truncated or malformed module");
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}
function uleb(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

// The module with the export section (id 7) rewritten without the exports whose names match DROPPED; every other
// section is copied as it is. Returns the module and the names dropped.
function dropExports(wasm) {
  if (wasm.length < 8 || wasm.readUInt32LE(0) !== 0x6d736100) throw new Error("not a wasm module");
  const parts = [wasm.subarray(0, 8)];
  const dropped = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    const end = body + size;
    if (id !== 7) {
      parts.push(wasm.subarray(at, end));
    } else {
      let [count, p] = leb(wasm, body);
      const kept = [];
      for (; count > 0; count--) {
        const start = p;
        const [len, name] = leb(wasm, p);
        const text = wasm.subarray(name, name + len).toString("utf8");
        [, p] = leb(wasm, name + len + 1); // kind byte, then the index
        if (DROPPED.test(text)) dropped.push(text);
        else kept.push(wasm.subarray(start, p));
      }
      const section = Buffer.concat([uleb(kept.length), ...kept]);
      parts.push(Buffer.from([7]), uleb(section.length), section);
    }
    at = end;
  }
  return [Buffer.concat(parts), dropped];
}

const index = path.join(staging, "index.html");
let html = fs.readFileSync(index, "utf8");
const named = html.match(/data-wasm=\.?\/?([^\s>"]+_bg\.wasm)/);
if (!named) {
  console.error("trim-wasm: index.html names no page wasm (data-wasm)");
  process.exit(2);
}
// The version trunk.toml pins (tools.wasm_opt): another one fails the build rather than being used.
let version = "";
try {
  version = execFileSync(wasmOpt, ["--version"], { encoding: "utf8" });
} catch (e) {
  console.error(`trim-wasm: no wasm-opt at ${wasmOpt} (scripts/setup.sh web installs it): ${e.message || e}`);
  process.exit(2);
}
if (!/version 132\b/.test(version)) {
  console.error(`trim-wasm: ${wasmOpt} is ${version.trim()}, not binaryen version 132 (trunk.toml)`);
  process.exit(2);
}
const file = path.join(staging, named[1]);
const before = fs.readFileSync(file);
const [trimmed, dropped] = dropExports(before);
if (dropped.length === 0) console.warn("trim-wasm: no stream adapter exports found; optimising as it is");
const tmp = file + ".trim.wasm";
fs.writeFileSync(tmp, trimmed);
try {
  execFileSync(wasmOpt, ["-Os", "--low-memory-unused", tmp, "-o", file], { stdio: "inherit" });
} catch (e) {
  console.error(`trim-wasm: wasm-opt failed (${wasmOpt}; scripts/setup.sh web installs it): ${e.message || e}`);
  process.exit(2);
} finally {
  fs.rmSync(tmp, { force: true });
}
// Trunk hashed the wasm as it left it: the preload's integrity must follow, or the browser refuses the file.
const old = sri(before);
if (!html.includes(old)) {
  console.error(`trim-wasm: index.html has no integrity ${old} for ${named[1]} to rewrite`);
  process.exit(2);
}
html = html.split(old).join(sri(fs.readFileSync(file)));
fs.writeFileSync(index, html);
console.log(`trim-wasm: ${named[1]} without ${dropped.length} stream adapter exports, wasm-opt -Os`);
