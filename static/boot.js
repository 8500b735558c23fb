// Starts the page without an inline script (the CSP allows only files from this origin): Trunk writes the hashed
// names of the wasm-bindgen glue and the wasm on this script's own tag.
const tag = document.querySelector("script[data-wasm]");
// Embed mode (?embed=1, as the app reads it) hides the page chrome that lives in index.html.
const embed = new URLSearchParams(location.search).get("embed");
if (embed !== null && ["1", "true", "yes", ""].includes(embed)) {
  document.documentElement.classList.add("embed");
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
