# The two commands of this project:
#   make serve      the main job: installs what is missing, builds the page and serves it on http://127.0.0.1:8080
#   make test       every check CI runs, the browser tests included, each step timed
# The loop for a change: make check (fmt, clippy and the tests of the crates the change touches; offline, no
# browser, no root; CRATES="estimator-core probe-cli" to choose them).
# Extra: make dist (build the page into dist/), make estimate (the reference question in the terminal),
# make bench (criterion benchmarks of the model, and bench-report), make bench-report (probe-cli report on the
# 8-GPU fixture, budget 50 ms), make bench-page (the page's load and recompute times in
# Chromium), make page-size (first-load transfer), make calibration (print the calibration table), make probe-dist
# (the portable probe for x86_64 and aarch64 Linux, binaries and wheels, into dist/probe/; make probe-dist-test tests it).

CARGO ?= cargo
ARGS ?=

# wasm-opt from npm's binaryen (scripts/setup.sh web) and cargo-installed tools come first.
CARGO_HOME ?= $(HOME)/.cargo
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(CARGO_HOME)/bin:$(PATH)
# Trunk: no update check, no downloads (a missing or wrong tool fails the build instead), crates fetched by setup.
export TRUNK_SKIP_VERSION_CHECK := true
export TRUNK_OFFLINE := true
TRUNK := trunk --config trunk.toml

.PHONY: serve dist estimate test check setup setup-web setup-browser setup-all fmt-check clippy clippy-web unit doc web-test \
	e2e page-size bench bench-report bench-import bench-page calibration fuzz fuzz-build fuzz-check bench-fleet bench-pairs bench-trace \
	setup-probe probe-dist probe-dist-test dist-only e2e-only page-size-only probe-dist-only probe-dist-test-only

serve: setup-web
	$(TRUNK) serve --release

# Trunk replaces dist/ as a whole: the portable probe (dist/probe, make probe-dist) is kept aside and put back.
# A failed build puts it back too; one kept from an interrupted run is restored, never deleted.
# The public targets run their *-only step after their prerequisites, also under make -j.
then-only = @$(MAKE) --no-print-directory $@-only

dist: setup-web
	$(then-only)

dist-only:
	@if [ -d dist/probe ] && [ ! -d .tools/probe-kept ]; then mkdir -p .tools && mv dist/probe .tools/probe-kept; fi
	@status=0; $(TRUNK) build --release || status=$$?; \
	if [ -d .tools/probe-kept ]; then rm -rf dist/probe; mkdir -p dist && mv .tools/probe-kept dist/probe; fi; \
	exit $$status

estimate: setup
	$(CARGO) build --release -q -p probe-cli
	@echo "== The reference question: 7B BF16 ZeRO-1 on 2 nodes x 8 H100, A = 1 x 25 GbE (no RDMA), B = 8 x 400 Gb/s InfiniBand"
	./target/release/probe-cli estimate step --reference $(ARGS)

# make test: every step below in this order, each with a timing line and a table of them at the end
# (scripts/timed-steps.sh). Everything is installed first, in one step, so that the downloads run beside the
# cargo tools' build; the page and the portable probe are built once each and then tested (the *-only targets
# are the same steps without their prerequisites).
TEST_STEPS := setup-all fmt-check clippy unit doc fuzz-check web-test dist-only e2e-only page-size-only \
	probe-dist-only probe-dist-test-only
test:
	+@MAKE='$(MAKE)' ./scripts/timed-steps.sh $(TEST_STEPS)

# The loop for a change (scripts/check.sh): seconds after a one-line change in one crate.
check:
	@./scripts/check.sh

setup:
	@./scripts/setup.sh

setup-web:
	@./scripts/setup.sh web

setup-browser:
	@./scripts/setup.sh web browser

setup-probe:
	@./scripts/setup.sh probe

setup-all:
	@./scripts/setup.sh web browser probe

probe-dist: setup-probe
	$(then-only)

probe-dist-only:
	./scripts/probe-dist.sh

probe-dist-test: probe-dist
	$(then-only)

probe-dist-test-only:
	./scripts/probe-dist-test.sh

fmt-check:
	$(CARGO) fmt --all -- --check
	$(CARGO) fmt --manifest-path fuzz/Cargo.toml -- --check

# The page builds for wasm32 only, so it is linted (and tested) for that target.
clippy: clippy-web
	$(CARGO) clippy --workspace --exclude web --all-targets -- -D warnings

clippy-web:
	$(CARGO) clippy -p web --target wasm32-unknown-unknown --all-targets -- -D warnings

unit:
	$(CARGO) test --workspace --exclude web

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --exclude web --no-deps
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -p web --target wasm32-unknown-unknown --no-deps

# Component tests in headless Chromium (wasm-bindgen-test-runner, set as the wasm32 runner in .cargo/config.toml).
web-test:
	$(CARGO) test -p web --target wasm32-unknown-unknown

# The Trunk-built page end to end through chromedriver; screenshots land in target/page-screenshots/.
# The packages and features of `make unit`, so the test binary it built is the one that runs (with `-p tests`
# alone, estimator-core would lose probe-cli's `schema` feature and everything above it would build again).
e2e: dist
	$(then-only)

e2e-only:
	$(CARGO) test --workspace --exclude web --test page -- --ignored --nocapture

page-size: dist
	$(then-only)

# The packages and features of `make unit` (as e2e-only), so the binary it built is the one that runs.
page-size-only:
	$(CARGO) build -q --workspace --exclude web --bins
	./target/debug/page-size

bench:
	$(CARGO) bench -p estimator-core --bench estimate
	$(CARGO) bench -p estimator-core --bench import
	$(CARGO) bench -p probe-cli --bench report
	$(CARGO) bench -p probe-cli --bench fleet
	$(CARGO) bench -p probe-cli --bench pairs

# The fuzz targets (fuzz/, a workspace of its own) must keep compiling: `make test` type-checks them, without
# libFuzzer's C++ (the `libfuzzer` feature), in the main target directory, where clippy has already checked their
# crates (fuzz/Cargo.lock pins the same versions); `make fuzz-build` links them with libFuzzer; running them needs
# cargo-fuzz (`make fuzz`).
fuzz-check:
	$(CARGO) check -q --manifest-path fuzz/Cargo.toml --bins --no-default-features --target-dir target

fuzz-build:
	$(CARGO) build -q --manifest-path fuzz/Cargo.toml --bins

# Each target FUZZ_SECONDS (default 600), seeded from tests/data; libFuzzer on stable through RUSTC_BOOTSTRAP.
FUZZ_SECONDS ?= 600
fuzz:
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install --locked cargo-fuzz --version 0.13.2
	./fuzz/seed.sh
	for t in nccl_tests nccl_log nvidia_smi_topo ibstat ibv_devinfo report_json pairs recipe profile; do \
		RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run -s none $$t fuzz/corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) \
			-max_len=65536 -print_final_stats=1 || exit 1; \
	done

bench-report:
	$(CARGO) bench -p probe-cli --bench report

bench-fleet:
	$(CARGO) bench -p probe-cli --bench fleet

bench-pairs:
	$(CARGO) bench -p probe-cli --bench pairs

# A 100 MB PyTorch profiler trace read and judged (issue 31's budget: 2 s).
bench-trace:
	$(CARGO) bench -p estimator-core --bench trace

bench-import:
	$(CARGO) bench -p estimator-core --bench import

bench-page: dist
	$(CARGO) run --release -q -p tests --bin page-bench

calibration:
	$(CARGO) test -p tests --test calibration calibration_set_is_reproduced -- --nocapture
