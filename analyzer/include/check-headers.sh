#!/bin/sh
# Compile every tests/*.cu with the exact clang invocation gmrace uses,
# against these stand-in headers:
#   1. -fsyntax-only
#   2. -S -o /dev/null            (PTX generation)
#   3. -fsyntax-only -DGMRACE_PLAIN_BUILTIN_VARS   (optional analysis mode)
# Exits non-zero if any compilation fails.  CLANG overrides the compiler.
set -u
here=$(cd "$(dirname "$0")" && pwd)
clang=${CLANG:-clang-14}
status=0
pass=0
fail=0
for f in "$here"/tests/*.cu; do
  # Extra flags a test file asks for, e.g. user macros the headers must survive.
  flags=$(sed -n 's#^// check-flags: ##p' "$f")
  for mode in "-fsyntax-only" "-S -o /dev/null" \
              "-fsyntax-only -DGMRACE_PLAIN_BUILTIN_VARS"; do
    # $mode is intentionally split into words.
    # shellcheck disable=SC2086
    if "$clang" -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc \
        -nocudalib -Xclang -target-feature -Xclang +ptx70 \
        -I "$here" -include gmrace_prelude.h $flags $mode "$f"; then
      pass=$((pass + 1))
    else
      echo "FAIL: $mode $f" >&2
      fail=$((fail + 1))
      status=1
    fi
  done
done
echo "check-headers: $pass passed, $fail failed"
exit $status
