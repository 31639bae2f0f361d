# autosync — one-command set-up on a fresh Debian machine with only Rust installed.
SHELL := /bin/bash
CARGO ?= cargo
APT_PACKAGES := libz3-dev cmake libclang-dev pkg-config clang
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test test-slow demo bench fuzz fuzz-cli lint fmt clean

all: build

# Installs the native parts when missing: z3, cmake and libclang (rustsat-minisat's build), clang
# (the CUDA front end).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(CARGO) build --release

# The fast tests: everything but the slow tier, in the unoptimized test build (Cargo.toml's dev
# profile), which is what makes a fresh clone's build short; under 3 minutes on 2 cores.
test: deps
	$(CARGO) test -- --test-threads=2

# The slow tier, in the release build (tests marked `#[ignore = "slow tier: …"]`, rust-analyzer's
# slow-tests idea): the corpus-wide fix/check property, the real-world corpus, the interpreter,
# pre-filter and ablation differentials over whole corpora, every prefix of every KPL kernel,
# every benchmark's synthesis; then the property tests on 64 generated kernels each and 300 CLI
# fuzz cases (`make test` runs 16 and 30). CI runs it after `make test`. `verify::time_corpus` is
# a timing tool, not a test.
test-slow: deps
	$(CARGO) test --release --test suite -- --ignored --skip verify::time_corpus --test-threads=2
	AUTOSYNC_PROP_CASES=64 $(CARGO) test --release --test suite -- prop:: --test-threads=2
	AUTOSYNC_FUZZ_CLI_CASES=300 $(CARGO) test --release --test suite -- fuzz_cli:: --test-threads=2

# The main job on the AutoSync paper's Fig. 4 kernel with its barriers removed.
demo: build
	@mkdir -p target/demo
	@grep -v '__syncthreads();' benchmarks/micro/fig4.cu > target/demo/fig4.cu
	@echo '$$ autosync check target/demo/fig4.cu'
	-@./target/release/autosync check target/demo/fig4.cu
	@echo '$$ autosync fix --explain --stats target/demo/fig4.cu'
	./target/release/autosync fix --explain --stats target/demo/fig4.cu

# The benchmark suite (benchmarks/README.md): writes benchmarks/results/latest.{md,csv,svg} and
# regenerates the "Results" section of README.md; then the scaling experiment (scale.{md,csv,svg})
# and the repository-scale run (repo.md: one `check` over 230 files, time per file). Exit 1 when a
# kernel fails or does not verify.
bench: build
	./target/release/autosync bench --out benchmarks/results --readme README.md
	./target/release/autosync bench --scale --out benchmarks/results
	./target/release/autosync bench --repo --out benchmarks/results

# The differential property tests (tests/suite/prop.rs) on many more generated kernels than `make test`
# runs; FUZZ_CASES and FUZZ_SEED choose how many and which.
FUZZ_CASES ?= 3000
FUZZ_SEED ?= 1
fuzz: deps
	AUTOSYNC_PROP_CASES=$(FUZZ_CASES) AUTOSYNC_PROP_SEED=$(FUZZ_SEED) $(CARGO) test --release --test suite -- prop:: --test-threads=2 --nocapture

# The command-line mutation fuzzer (tests/suite/fuzz_cli.rs) on many more cases than `make test`
# runs (300): panics, signals, time-outs, unlocated exit-2 errors and invalid JSON fail it.
FUZZ_CLI_CASES ?= 3000
FUZZ_CLI_SEED ?= 1
fuzz-cli: deps
	AUTOSYNC_FUZZ_CLI_CASES=$(FUZZ_CLI_CASES) AUTOSYNC_FUZZ_CLI_SEED=$(FUZZ_CLI_SEED) $(CARGO) test --release --test suite -- fuzz_cli:: --nocapture

lint: deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
