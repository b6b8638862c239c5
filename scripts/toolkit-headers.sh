#!/usr/bin/env bash
# Installs a real CUDA toolkit's headers (no compiler, no libraries) into a cache directory and
# prints that directory, which `gmrace --cuda-path` and the tests take as a toolkit root. The
# wheels are pinned with their hashes in toolkit-headers.txt. Safe to run again: an existing
# tree is kept. The directory is $GMRACE_TOOLKIT_HEADERS when set, else
# ${XDG_CACHE_HOME:-~/.cache}/gmrace/cuda-12.4.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${GMRACE_TOOLKIT_HEADERS:-${XDG_CACHE_HOME:-$HOME/.cache}/gmrace/cuda-12.4}"
stamp="$root/.gmrace-headers"
want="$(sha256sum "$here/toolkit-headers.txt" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "$root"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "toolkit-headers: downloading CUDA 12.4 headers into $root" >&2
# The headers are the same on every platform; the x86_64 wheels are the ones pinned.
python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
  --only-binary=:all: --platform manylinux2014_x86_64 --python-version 3.11 \
  -r "$here/toolkit-headers.txt" -d "$work" >&2
rm -rf "$root"
mkdir -p "$root/include" "$root/bin"
python3 - "$work" "$root/include" <<'PY'
import pathlib, sys, zipfile
wheels, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            parts = name.split("/")
            # nvidia/<component>/include/<header path>
            if len(parts) > 3 and parts[0] == "nvidia" and parts[2] == "include" and not name.endswith("/"):
                rel = pathlib.Path(*parts[3:])
                if rel.name == "__init__.py":
                    continue
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
PY
echo "$want" > "$stamp"
echo "$root"
