#!/bin/sh
# Compile every tests/*.cu with the exact clang invocation gmrace uses,
# against these stand-in headers:
#   1. -S -o /dev/null            (PTX generation; it checks all that
#                                  -fsyntax-only, gmrace's own parse, does)
#   2. -fsyntax-only -DGMRACE_PLAIN_BUILTIN_VARS   (optional analysis mode)
# Exits non-zero if any compilation fails.  CLANG overrides the compiler.
# The files are compiled in parallel, one job per core (`--one FILE` compiles one file).
set -u
here=$(cd "$(dirname "$0")" && pwd)
clang=${CLANG:-clang-14}

if [ "${1:-}" = "--one" ]; then
  f=$2
  # Extra flags a test file asks for, e.g. user macros the headers must survive.
  flags=$(sed -n 's#^// check-flags: ##p' "$f")
  for mode in "-S -o /dev/null" "-fsyntax-only -DGMRACE_PLAIN_BUILTIN_VARS"; do
    # $mode is intentionally split into words.
    # shellcheck disable=SC2086
    if "$clang" -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc \
        -nocudalib -Xclang -target-feature -Xclang +ptx70 \
        -I "$here" -idirafter "$here/pytorch" -include gmrace_prelude.h $flags $mode "$f"; then
      echo "PASS"
    else
      echo "FAIL: $mode $f" >&2
      echo "FAIL"
    fi
  done
  exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
results=$(for f in "$here"/tests/*.cu; do printf '%s\n' "$f"; done |
  xargs -P "$jobs" -I{} sh "$0" --one {})
pass=$(printf '%s\n' "$results" | grep -c '^PASS$')
fail=$(printf '%s\n' "$results" | grep -c '^FAIL$')
echo "check-headers: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
