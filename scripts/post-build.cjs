// Trunk's post_build hook (trunk.toml): Trunk starts the hooks of one stage together, and both of these rewrite
// index.html's integrity hashes, so they run here one after the other: the scripts minified (minify-js.cjs), then
// the page's wasm trimmed and optimised (trim-wasm.cjs).
"use strict";
const path = require("path");
const { execFileSync } = require("child_process");

for (const step of ["minify-js.cjs", "trim-wasm.cjs"]) {
  try {
    execFileSync(process.execPath, [path.join(__dirname, step)], { stdio: "inherit" });
  } catch (e) {
    console.error(`post-build: ${step} failed`);
    process.exit(2);
  }
}
