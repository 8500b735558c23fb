#!/usr/bin/env bash
# First-load transfer of the built page: index.html and every file it loads before the first estimate
# (boot.js, the JS glue, the wasm, the CSS, the icon), each compressed with gzip -9. Prints each and the total;
# exits 1 above the budget (150 KB, counted as 150,000 bytes).
set -euo pipefail
dist=${1:-dist}
budget=${PAGE_BUDGET_BYTES:-150000}
index="$dist/index.html"
[ -f "$index" ] || { echo "page-size: no $index (run make dist)" >&2; exit 2; }

# Local files named in href=, src=, data-js= and data-wasm= of index.html (modulepreload and preload included,
# once each).
# Trunk's minified HTML leaves attribute values unquoted where it can.
files=$(grep -oE '(href|src|data-js|data-wasm)=("[^"]+"|[^ >"]+)' "$index" | sed -E 's/^[a-z-]+="?(\.\/)?//; s/"$//' \
    | grep -vE '^(https?:|#|data:)' | grep -v 'embed-example' | sort -u)
total=0
printf '%-40s %10s %10s\n' file bytes gzip-9
for f in index.html $files; do
    path="$dist/$f"
    [ -f "$path" ] || { echo "page-size: index.html names $f, which is not in $dist" >&2; exit 2; }
    raw=$(wc -c <"$path")
    gz=$(gzip -9c "$path" | wc -c)
    total=$((total + gz))
    printf '%-40s %10d %10d\n' "$f" "$raw" "$gz"
done
printf '%-40s %10s %10d (budget %d)\n' total "" "$total" "$budget"
if [ "$total" -gt "$budget" ]; then
    echo "page-size: first load is $total bytes gzipped, over the $budget budget" >&2
    exit 1
fi
