#!/usr/bin/env bash
# The test command: builds everything and runs every test. Without a GPU, the GPU tests are
# reported as skipped (never as passed); the last line counts passed, failed and skipped apart,
# since CTest's own "100% tests passed" counts the skipped ones as passed.
#   scripts/test.sh [PRESET]   default: default. `device` is for a GPU machine without network,
#                              whose libraries come from .deps/ (scripts/gpu-suite sets that up).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
preset=${1:-default}
book_require_cuda
case "$preset" in
  device*) ;;  # no apt there: the libraries were carried in (CMAKE_PREFIX_PATH)
  *) book_ensure_packages "${BOOK_BUILD_PACKAGES[@]}" "${BOOK_FONT_PACKAGES[@]}" ;;
esac
# The GPU to build for: CUDA_ARCHITECTURES=86 scripts/test.sh sets it; otherwise the build directory keeps
# its earlier choice (-DCMAKE_CUDA_ARCHITECTURES=...), and a new one takes this machine's GPUs, or
# sm_90 without a GPU (cmake/CudaArchitectures.cmake says so when it configures).
architectures=()
[ -n "${CUDA_ARCHITECTURES:-}" ] && architectures=("-DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES")
cmake --preset "$preset" "${architectures[@]}"
cmake --build --preset "$preset" --parallel "$(nproc)"  # one job a core (book.sh says why)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
ctest --preset "$preset" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
# CTest says "100% tests passed, 0 tests failed out of N", or in newer versions, when none
# failed, "100% tests passed out of N".
total=$(sed -nE 's/^[0-9]+% tests passed(, [0-9]+ tests? failed)? out of ([0-9]+)$/\2/p' "$log")
failed=$(sed -nE 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of [0-9]+$/\1/p' "$log")
failed=${failed:-0}
skipped=$(grep -cE '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$log" || true)
if [ -n "$total" ]; then
  echo
  echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped (they need a GPU, or more GPUs than this machine has)"
fi
exit "$rc"
