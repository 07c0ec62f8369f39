#!/usr/bin/env bash
# The test command: builds everything and runs every test. Without a GPU, the GPU tests are
# reported as skipped (never as passed).
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
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset"
