# The two commands of this project:
#   make estimate   the main job (until the page lands): the reference question in the terminal
#   make test       every check CI runs
# Extra: make bench (criterion benchmarks), make calibration (print the calibration table).

CARGO ?= cargo
ARGS ?=

.PHONY: estimate test setup fmt-check clippy unit wasm doc bench calibration

estimate: setup
	$(CARGO) build --release -q -p probe-cli
	@echo "== 7B BF16 on 2 nodes x 8 H100: A = 8 x 25 Gb/s RoCE, B = 8 x 400 Gb/s InfiniBand (ring factor 2, as the reference)"
	./target/release/probe-cli estimate step --params 7B --dtype bf16 --nodes 2 --gpus-per-node 8 --gpu h100-sxm \
		--adapters 8 --link-gbps 25 --fabric roce --vs-link-gbps 400 --vs-fabric ib --ring-factor 2 $(ARGS)

test: setup fmt-check clippy unit wasm doc

setup:
	@./scripts/setup.sh

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

unit:
	$(CARGO) test --workspace

wasm:
	$(CARGO) build -p estimator-core --target wasm32-unknown-unknown

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

bench:
	$(CARGO) bench -p estimator-core --bench estimate

calibration:
	$(CARGO) test -p tests --test calibration calibration_set_is_reproduced -- --nocapture
