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
# `DIR/gpu-check.sh racecheck`: compute-sanitizer's racecheck on every `off` bundle (the user's
# kernel, unchecked), for the comparison beside gmrace's races; DIR/racecheck.txt has one line
# per bundle (racecheck's summary, or that it did not finish in 60 s) and each hazard it names.
racecheck() {
    local sanitizer
    sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
    [[ -x "$sanitizer" ]] || { echo "no compute-sanitizer: racecheck not run"; return 0; }
    mkdir -p "$dir/racecheck"
    # shellcheck disable=SC2016
    find "$dir/bundles" -maxdepth 1 -name '*-off' -printf '%f\n' | sort |
        xargs -P 6 -I{} sh -c 'timeout 60 "$1" --tool racecheck "$2/gmrace-gpu" --quiet \
            "$2/bundles/$3" >"$2/racecheck/$3.txt" 2>&1' _ "$sanitizer" "$dir" {}
    for f in "$dir"/racecheck/*.txt; do
        local summary
        summary="$(grep -h 'RACECHECK SUMMARY' "$f" | sed 's/^=* *RACECHECK SUMMARY: *//')"
        echo "$(basename "$f" .txt): ${summary:-did not finish in 60 s}"
        grep -E '^=+ +(Error|Warning): Race' "$f" | sed -e 's/^=* *//' -e 's/+0x[0-9a-f]*//g' | sort | uniq -c
    done >"$dir/racecheck.txt"
    echo "racecheck: $dir/racecheck.txt"
}
if [[ "${1:-}" == racecheck ]]; then
    racecheck
    exit 0
fi
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
