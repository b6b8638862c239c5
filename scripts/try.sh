#!/usr/bin/env bash
# Set-up, then gmrace on a bundled example kernel (a shared-memory tree reduction): the static
# analysis, then a run on the CPU SIMT device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet -p gmrace
kernel=tests/kernels/analysis/reduce_seq_fixed.cu
./target/release/gmrace analyze "$kernel"
./target/release/gmrace run "$kernel" --launch tests/kernels/device/reduce_seq_fixed.toml --mode off
# The dynamic checker on the racy twin, every shared access checked: a race is found (exit 1).
./target/release/gmrace run tests/kernels/analysis/reduce_seq_race.cu \
    --launch tests/kernels/device/reduce_seq_fixed.toml --mode stmt --all || test $? -eq 1
