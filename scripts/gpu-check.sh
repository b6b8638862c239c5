#!/usr/bin/env bash
# The GPU check in three steps (README, "Running on a GPU machine"):
#   scripts/gpu-check.sh prepare DIR   here: builds gmrace (release) and gmrace-gpu (`dist`: release
#                                      without line tables, at most 15 MiB), writes the
#                                      bundles of every device-corpus kernel (and its race twin)
#                                      in off, flag and stmt modes and flag and stmt with --all,
#                                      gmrace-gpu and DIR/gpu-check.sh
#                                      into DIR (at most 40 MiB);
#   DIR/gpu-check.sh                   on the GPU machine (a CUDA driver and NVRTC; nothing else):
#                                      runs every bundle on the GPU and the CPU device, writes
#                                      DIR/results.json, prints the table; non-zero exit on any
#                                      disagreement; exit 0 saying so when there is no GPU;
#   copy DIR/results.json back         figures go to benchmarks/results/gpu/, naming the GPU and
#                                      driver results.json records.
# With no argument, on a GPU machine where gmrace builds: both steps, in a temporary directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
limit_mib=40

prepare() {
    local dir="$1"
    cd "$root"
    cargo build --release --quiet -p gmrace
    cargo build --profile dist --quiet -p gmrace-gpu
    rm -rf "$dir"
    mkdir -p "$dir/bundles"
    local n=0
    for spec in tests/kernels/device/*.toml; do
        # The spec's first line names its kernel file (relative to tests/kernels/).
        local rel
        rel="$(head -1 "$spec" | sed -e 's/^# *//' -e 's/[ :].*//' -e 's|^tests/kernels/||')"
        local cus=("tests/kernels/$rel")
        local twin="tests/kernels/${rel/_fixed.cu/_race.cu}"
        [[ "$twin" != "${cus[0]}" && -f "$twin" ]] && cus+=("$twin")
        for cu in "${cus[@]}"; do
            # `--all` checks the accesses the analysis proved racy too: the checkers of both
            # devices then meet every race of the corpus, not only the ones left unknown.
            for mode in off flag stmt flag-all stmt-all; do
                local opts=(--mode "${mode%-all}")
                [[ "$mode" == *-all ]] && opts+=(--all)
                target/release/gmrace run "$cu" --launch "$spec" "${opts[@]}" --quiet \
                    --bundle "$dir/bundles/$(basename "$cu" .cu)-$mode" >/dev/null
                n=$((n + 1))
            done
        done
    done
    cp target/dist/gmrace-gpu "$dir/"
    local bin_kib
    bin_kib="$(du -k "$dir/gmrace-gpu" | cut -f1)"
    if ((bin_kib > 15 * 1024)); then
        echo "error: gmrace-gpu is $((bin_kib / 1024)) MiB, over 15" >&2
        exit 1
    fi
    cp scripts/gpu-check-run.sh "$dir/gpu-check.sh"
    local kib
    kib="$(du -sk "$dir" | cut -f1)"
    echo "prepared $n bundles and gmrace-gpu in $dir: $((kib / 1024)) MiB (at most $limit_mib)"
    if ((kib > limit_mib * 1024)); then
        echo "error: $dir is over $limit_mib MiB" >&2
        exit 1
    fi
}

case "${1:-}" in
prepare)
    [[ $# -eq 2 ]] || { echo "usage: $0 prepare DIR" >&2; exit 2; }
    prepare "$(realpath -m "$2")"
    ;;
"")
    dir="$(mktemp -d)/gmrace-gpu-check"
    prepare "$dir"
    exec "$dir/gpu-check.sh"
    ;;
*)
    echo "usage: $0 [prepare DIR]" >&2
    exit 2
    ;;
esac
