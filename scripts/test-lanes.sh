#!/usr/bin/env bash
# Every test binary of the workspace (`cargo test --workspace --profile ci`, built first), run
# two at a time, the longest first, each from its package's directory as `cargo test` runs it.
# `cargo test` runs one binary after another, and its binaries leave part of two cores idle
# (single-threaded set-up, the libclang lock, subprocess waits): two lanes take an eighth less
# time (benchmarks/results/ci-time.md). Every binary runs to the end; each one's output is
# printed when it ends, and the exit status is non-zero when any failed, naming them.
set -euo pipefail
cd "$(dirname "$0")/.."
lanes="${GMRACE_TEST_LANES:-2}"
logs="target/ci-test-logs"
rm -rf "$logs"
mkdir -p "$logs"
# The suite's longest binaries, longest first (their times on two cores are in the last CI
# log); the others follow in cargo's order. A name missing here only runs later.
longest=(analysis instrument bundle toolkit cuda determinism dynamic realcode cuda_checked_source)

# "DIR EXECUTABLE" for each test binary, from cargo's JSON messages (diagnostics on stderr).
cargo test --workspace --locked --profile ci --no-run --message-format=json-render-diagnostics |
    grep '"reason":"compiler-artifact"' | grep -E '"profile":\{[^}]*"test":true' |
    grep '"executable":"' |
    sed -E 's|.*"manifest_path":"([^"]*)/Cargo.toml".*"executable":"([^"]*)".*|\1 \2|' \
        >"$logs/binaries"
ordered() {
    local name
    for name in "${longest[@]}"; do
        grep -E "/deps/${name}-[0-9a-f]+$" "$logs/binaries" || true
    done
    grep -v -E "/deps/($(IFS='|'; echo "${longest[*]}"))-[0-9a-f]+$" "$logs/binaries" || true
}
# One binary: its output to a log, printed whole when it ends with its time and status.
run_one() {
    local dir="$1" exe="$2" logs="$3" name start status
    name="$(basename "$exe")"
    start="$SECONDS"
    status=0
    (cd "$dir" && "$exe") >"$logs/$name.log" 2>&1 || status=$?
    {
        echo "==== $name ($(realpath --relative-to=. "$dir")): exit $status, $((SECONDS - start)) s"
        cat "$logs/$name.log"
    } | flock "$logs/print.lock" cat
    [ "$status" -eq 0 ] || touch "$logs/$name.failed"
}
export -f run_one
ordered | xargs -P "$lanes" -L 1 bash -c 'run_one "$1" "$2" "$0"' "$logs" 2>&1 ||
    true
# Doc tests (none today) are not in the binaries above.
cargo test --workspace --locked --profile ci --doc
failed=("$logs"/*.failed)
if [ -e "${failed[0]}" ]; then
    echo "test-lanes: failed: $(basename -s .failed "${failed[@]}" | tr '\n' ' ')" >&2
    exit 1
fi
echo "test-lanes: $(wc -l <"$logs/binaries") test binaries passed"
