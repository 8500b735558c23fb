// Starts the details worker (web/src/bin/details_worker.rs): the wasm-bindgen glue, then the wasm, with the
// initialisation object wasm-bindgen 0.2.130 asks for (Trunk's own loader shim passes a bare path, which
// wasm-bindgen reports as deprecated). Trunk names worker outputs after the binary, without a hash.
importScripts("./details-worker.js");
wasm_bindgen({ module_or_path: "./details-worker_bg.wasm" });
