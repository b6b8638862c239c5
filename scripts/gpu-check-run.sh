#!/usr/bin/env bash
# Step two of gmrace's GPU check, copied to DIR/gpu-check.sh by `scripts/gpu-check.sh prepare`:
# every bundle of DIR/bundles on the GPU and on the CPU device, compared; DIR/results.json and a
# table. Needs a CUDA driver and NVRTC, nothing else. Without a GPU it says so and exits 0.
set -uo pipefail
dir="$(cd "$(dirname "$0")" && pwd)"
# A toolkit's NVRTC is often outside the loader's path (and CUDA 13's is only libnvrtc.so.13
# there, beside the libnvrtc.so this finds).
for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    [[ -n "$root" && -d "$root/lib64" ]] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$root/lib64"
done
if ! probe="$("$dir/gmrace-gpu" --probe 2>&1)"; then
    echo "no GPU to check on: $probe"
    exit 0
fi
echo "$probe"
# A kernel still running after 10 s (a barrier some threads never reach) is a fault there, and
# gmrace-gpu goes on with the other bundles in a fresh process.
"$dir/gmrace-gpu" --gpu-timeout 10 --table --results "$dir/results.json" "$dir"/bundles/*
status=$?
echo "results: $dir/results.json"
# 1 is a race or fault both devices found: the corpus has racy twins on purpose.
case $status in
0 | 1) exit 0 ;;
*) exit $status ;;
esac
