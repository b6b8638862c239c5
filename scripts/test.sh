#!/usr/bin/env bash
# The whole test suite, as CI runs it: set-up, formatting, lints, every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, so that a slow CI run says where the time went.
step() { echo "test.sh: $1 done at ${SECONDS}s" >&2; }
bash scripts/setup.sh
step setup
# A real toolkit's headers, for the tests that read the corpus with them too (tests/realcode/toolkit.rs).
GMRACE_TOOLKIT_HEADERS="$(bash scripts/toolkit-headers.sh)"
export GMRACE_TOOLKIT_HEADERS
step "toolkit headers"
cargo fmt --all -- --check
# Under the profile the tests build with, so that build scripts and proc macros compile once.
cargo clippy --workspace --all-targets --locked --profile ci -- -D warnings
step "fmt and clippy"
cargo test --workspace --locked --profile ci
step tests
