#!/usr/bin/env bash
# Render the book: OUT_DIR/index.html (introduction and contents) + one HTML page for each page that
# book/pages lists, one pandoc run each. Any pandoc warning fails the build, and so do
# a control byte in the markdown, a link to a file that does not exist, an image or a
# link that did not parse, and math left as text (book/pages.lua).
#
#   book/build.sh OUT_DIR
#   BOOK_ROOT=/tmp/booktest book/build.sh /tmp/out   # render another tree, by its book/pages
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

# The pages, in reading order: LABEL PAGE SOURCE (book/pages says more).
if [ ! -f book/pages ]; then
  echo "book/build.sh: no book/pages under $ROOT" >&2
  exit 1
fi
labels=() pages=() sources=()
while read -r label page source extra; do
  [[ -z $label || $label == \#* ]] && continue
  if [[ -z $source || -n $extra ]]; then
    echo "book/build.sh: book/pages: '$label $page $source $extra': want LABEL PAGE SOURCE" >&2
    exit 1
  fi
  if [ ! -f "$source" ]; then
    echo "book/build.sh: book/pages names $source, which does not exist" >&2
    exit 1
  fi
  labels+=("$label") pages+=("$page") sources+=("$source")
done < book/pages
if [ ${#sources[@]} -eq 0 ]; then
  echo "book/build.sh: book/pages lists no page" >&2
  exit 1
fi

# A control byte in the markdown (a \v typed into "\varphi" by a shell, say) is
# read as text and silently breaks what it touches: refuse it. Tabs are fine.
bad=$(grep -nP '[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]' "${sources[@]}" | cut -c1-120 || true)
if [ -n "$bad" ]; then
  echo "book/build.sh: raw control bytes (shown as ^X by cat -v) in the markdown:" >&2
  printf '%s\n' "$bad" | cat -v >&2
  exit 1
fi

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
for i in "${!sources[@]}"; do common+=(-M "book-pages=${labels[$i]} ${pages[$i]} ${sources[$i]}"); done
# Links to repository files that are not pages point into the tree, relative to the book.
common+=(-M "book-repo=$(realpath --relative-to="$OUT" "$ROOT")")

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

for i in "${!sources[@]}"; do
  f=${sources[$i]}
  # Images resolve against the page's directory first, then the repository root.
  # pages.lua numbers the sections with the page's label (8b.1, 8b.2, ...).
  render "$OUT/${pages[$i]}" "$f" --toc --toc-depth=3 --resource-path="$(dirname "$f"):." "$f"
done

# The contents page opens with the book's introduction, where the tree has one.
intro=()
[ -f book/introduction.md ] && intro=(-M book-intro=book/introduction.md)
render "$OUT/index.html" "the contents page" -M book-page=contents "${intro[@]}" --resource-path=. /dev/null

echo "$OUT/index.html"
