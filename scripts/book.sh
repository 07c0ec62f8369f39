#!/usr/bin/env bash
# The book command: builds everything, runs every chapter program (its CPU parts, or all of
# it on a machine with a GPU), draws the plots and renders the book.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
book_require_cuda
book_ensure_packages "${BOOK_BUILD_PACKAGES[@]}" "${BOOK_FONT_PACKAGES[@]}"
cmake --preset default
cmake --build --preset default --target all run_chapters book
echo
echo "Your own run of each chapter (output.txt, figures, data): $(pwd)/build/default/out/"
echo "The book (it shows the run recorded on a GPU, in plots/): file://$(pwd)/build/default/book/index.html"
