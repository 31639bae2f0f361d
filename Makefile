# autosync — one-command set-up on a fresh Debian machine with only Rust installed.
SHELL := /bin/bash
CARGO ?= cargo
APT_PACKAGES := libz3-dev cmake libclang-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test demo bench fuzz lint fmt clean

all: build

# Installs the native libraries (z3; cmake and libclang for rustsat-minisat) when missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(CARGO) build --release

test: deps
	$(CARGO) test --release -- --test-threads=2

demo: build
	@echo '$$ autosync fix --diff benchmarks/micro/fig4.kpl'
	-./target/release/autosync tree tests/kpl/paper/fig4.kpl

bench: build
	./target/release/autosync bench

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
