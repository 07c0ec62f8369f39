#!/usr/bin/env bash
# The book build refuses what would render wrong without a word from pandoc: one small tree
# per defect, each of which book/build.sh must reject with the message that names it; and the
# same tree without the defect must render.
#   tests/book/refusals.sh    (CTest: book.refuses_broken_markdown)
set -uo pipefail
build=$(cd "$(dirname "$0")/../../book" && pwd)/build.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# tree NAME BODY: a one-page book whose page is "# Title" then BODY.
tree() {
  local root=$work/$1
  mkdir -p "$root/book" "$root/chapters/01_one"
  cp "$(dirname "$build")"/{metadata.yaml,reader-format,style.html} "$root/book/"
  echo "1 01_one.html chapters/01_one/README.md" >"$root/book/pages"
  printf '# Title\n\n%s\n' "$2" >"$root/chapters/01_one/README.md"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n' >"$root/chapters/01_one/figure.svg"
  echo "$root"
}

# expect NAME WANTED BODY: the build of BODY fails and says WANTED (empty: it succeeds).
expect() {
  local name=$1 wanted=$2 root
  root=$(tree "$name" "$3")
  local out rc
  out=$(BOOK_ROOT=$root "$build" "$work/$name-out" 2>&1)
  rc=$?
  if [ -z "$wanted" ]; then
    [ $rc -eq 0 ] && echo "ok: $name renders" && return
    echo "FAILED: $name: the build failed (rc $rc): $out"
  else
    [ $rc -ne 0 ] && [[ $out == *"$wanted"* ]] && echo "ok: $name refused: $wanted" && return
    echo "FAILED: $name: wanted a failure saying '$wanted'; rc $rc, said: $out"
  fi
  failures=$((failures + 1))
}

expect "a clean page" "" 'Math $\varphi_1(z)$, a [link](README.md) and an image: ![A figure, a in [0.9, 1]](figure.svg)'
expect "a control byte" "raw control bytes" $'Math $\x0barphi_1(z)$.'
expect "a bracket in alt text" "an image or link did not parse" '![the error for a in [0.95, 1) levels off](figure.svg)'
expect "a link to nothing" "no such file in the repository" 'See [the code](missing.cu).'
expect "math left as text" "math left as text" 'The sum $1 + $ and more.'
exit $((failures > 0))
