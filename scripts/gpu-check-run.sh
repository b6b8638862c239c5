#!/usr/bin/env bash
# Step two of gmrace's GPU check, copied to DIR/gpu-check.sh by `scripts/gpu-check.sh prepare`:
# every bundle of DIR/bundles on the GPU and on the CPU device, compared; DIR/results.json and a
# table. Needs a CUDA driver and NVRTC, nothing else. Without a GPU it says so and exits 0.
set -uo pipefail
dir="$(cd "$(dirname "$0")" && pwd)"
if ! probe="$("$dir/gmrace-gpu" --probe 2>&1)"; then
    echo "no GPU to check on: $probe"
    exit 0
fi
echo "$probe"
"$dir/gmrace-gpu" --table --results "$dir/results.json" "$dir"/bundles/*
status=$?
echo "results: $dir/results.json"
# 1 is a race or fault both devices found: the corpus has racy twins on purpose.
case $status in
0 | 1) exit 0 ;;
*) exit $status ;;
esac
