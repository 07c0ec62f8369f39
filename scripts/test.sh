#!/usr/bin/env bash
# The test command: builds everything and runs every test. Without a GPU, the GPU tests are
# reported as skipped (never as passed).
#   scripts/test.sh [PRESET]     (default: default; also debug)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
book_require_cuda
book_ensure_packages "${BOOK_BUILD_PACKAGES[@]}" "${BOOK_FONT_PACKAGES[@]}"
preset=${1:-default}
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset"
