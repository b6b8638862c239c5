#!/usr/bin/env bash
# Set-up, then gmrace on a bundled example kernel: a shared-memory tree reduction.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo run --release --quiet -p gmrace -- ir tests/kernels/analysis/reduce_seq_fixed.cu
