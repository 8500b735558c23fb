// What both post_build steps (scripts/post-build.cjs) start from: Trunk's staging directory in a release build
// (in any other build they have nothing to do and the process ends here, with success), the project's root, and
// the subresource-integrity hash index.html holds for a file, which each step rewrites for the files it changes.
"use strict";
const path = require("path");
const crypto = require("crypto");

const name = path.basename(require.main ? require.main.filename : "post-build", ".cjs");
if (process.env.TRUNK_PROFILE !== "release") process.exit(0);
const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error(`${name}: TRUNK_STAGING_DIR is not set (run by Trunk as a post_build hook)`);
  process.exit(2);
}

module.exports = {
  staging,
  root: path.resolve(__dirname, ".."),
  sri: (bytes) => "sha384-" + crypto.createHash("sha384").update(bytes).digest("base64"),
};
