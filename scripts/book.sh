#!/usr/bin/env bash
# The book command: builds the chapter programs, runs each of them (its CPU parts, or all of it
# on a machine with a GPU), draws the plots and renders the book. Ends with one line per
# chapter: its checks, the GPU parts it skipped, where its output went. The tests are built by
# scripts/test.sh, not here: a quarter of a first build's compile time (246 of 1088 s of
# compile jobs, 2026-11-26) that the book does not need.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
book_require_cuda
book_ensure_packages "${BOOK_BUILD_PACKAGES[@]}" "${BOOK_FONT_PACKAGES[@]}"
build=build/default
# The GPU to build for: CUDA_ARCHITECTURES=86 scripts/book.sh sets it; otherwise the build directory keeps
# its earlier choice (-DCMAKE_CUDA_ARCHITECTURES=...), and a new one takes this machine's GPUs, or
# sm_90 without a GPU (cmake/CudaArchitectures.cmake says so when it configures).
architectures=()
[ -n "${CUDA_ARCHITECTURES:-}" ] && architectures=("-DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES")
cmake --preset default "${architectures[@]}"
# One compile job a core: ninja's default (cores + 2) took 641 s for the first build on 2 cores,
# one a core 520 s (fresh clones of the same tree back to back, ccache off, 2026-11-26).
# Build and run every chapter even when one fails (-k 0), so that each gets its line below.
status=0
cmake --build --preset default --parallel "$(nproc)" --target run_chapters -- -k 0 || status=1
cmake --build --preset default --target book || status=1

echo
echo "Each chapter's run here (everything it printed is in its output.txt):"
for program in "$build"/bin/ch[0-9][0-9]_*; do
  program=$(basename "$program")
  out="$build/out/$program"
  summary=$(grep -h "━━ Summary" "$out/output.txt" 2>/dev/null | sed -E 's/━━ Summary: //; s/ ━━$//' || true)
  printf '  %-20s %-58s %s/\n' "$program" "${summary:-no summary: it stopped early (see output.txt)}" "$out"
done
echo "The compiler's resource report (registers, spills of every kernel): $(pwd)/$build/ptxas.log"
echo "The book (it shows the run recorded on a GPU, in plots/): file://$(pwd)/$build/book/index.html"
exit $status
