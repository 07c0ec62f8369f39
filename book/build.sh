#!/usr/bin/env bash
# Render the book: OUT_DIR/index.html (contents) + OUT_DIR/NN_slug.html per chapter,
# one pandoc run per chapters/NN_slug/README.md. Any pandoc warning fails the build.
#
#   book/build.sh OUT_DIR
#   BOOK_ROOT=/tmp/booktest book/build.sh /tmp/out   # render another tree (tests)
set -euo pipefail

BOOK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "${BOOK_ROOT:-$BOOK_DIR/..}" && pwd)

if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
if ! command -v pandoc >/dev/null 2>&1; then
  echo "book/build.sh: pandoc not found; install it with: apt-get install -y pandoc" >&2
  exit 1
fi
mkdir -p "$1"
OUT=$(cd "$1" && pwd)

# pandoc 3 deprecated --self-contained (a warning, hence a failure here).
pandoc_major=$(pandoc --version | sed -n '1s/^pandoc[^0-9]*\([0-9]*\).*/\1/p')
if [ "${pandoc_major:-2}" -ge 3 ]; then embed=(--embed-resources --standalone); else embed=(--self-contained); fi

# include paths and chapter paths are relative to the root: run pandoc from there.
cd "$ROOT"
export BOOK_ROOT="$ROOT"
unset BOOK_LISTINGS   # extract mode is for scripts/sync-listings only

shopt -s nullglob
found=(chapters/*/README.md)
if [ ${#found[@]} -eq 0 ]; then
  echo "book/build.sh: no chapters/*/README.md under $ROOT" >&2
  exit 1
fi
mapfile -t chapters < <(printf '%s\n' "${found[@]}" | LC_ALL=C sort)

reader=$(<"$BOOK_DIR/reader-format")
common=(
  -f "$reader" -t html5 --preserve-tabs
  --standalone "${embed[@]}" --mathml --highlight-style=tango
  --fail-if-warnings
  -H "$BOOK_DIR/style.html"
  --metadata-file="$BOOK_DIR/metadata.yaml"
  -M book-reader="$reader"
  --lua-filter="$BOOK_DIR/include.lua"
  --lua-filter="$BOOK_DIR/pages.lua"
)
for f in "${chapters[@]}"; do common+=(-M "book-chapters=$f"); done

# Write to a temporary name first so a failed run never leaves a half page behind.
render() {  # render OUTPUT_FILE WHAT pandoc-args...
  local dest=$1 what=$2; shift 2
  if ! pandoc "${common[@]}" "$@" -o "$dest.tmp"; then
    rm -f "$dest.tmp"
    echo "book/build.sh: failed on $what" >&2
    exit 1
  fi
  # texmath writes \big( ... \Bigg( as unitless, non-stretchy sizes (MathML 3);
  # MathML Core, as Chromium implements it, needs a length and stretchy="true".
  sed -E -i 's/<mo minsize="([0-9.]+)" maxsize="([0-9.]+)" stretchy="false"/<mo minsize="\1em" maxsize="\2em" stretchy="true"/g' "$dest.tmp"
  mv "$dest.tmp" "$dest"
}

for f in "${chapters[@]}"; do
  dir=$(dirname "$f")
  slug=$(basename "$dir")
  if ! [[ $slug =~ ^([0-9]+)_ ]]; then
    echo "book/build.sh: $dir: chapter directories must be named NN_slug" >&2
    exit 1
  fi
  num=$((10#${BASH_REMATCH[1]}))
  # No H1 is left in the body (pages.lua makes it the title), so -N with this
  # offset numbers the H2s num.1, num.2, ...
  # Images resolve against the chapter directory first, then the repository root.
  render "$OUT/$slug.html" "$f" --toc --toc-depth=3 -N --number-offset="$num" \
    --resource-path="$dir:." "$f"
done

render "$OUT/index.html" "the contents page" -M book-page=contents --resource-path=. /dev/null

echo "$OUT/index.html"
