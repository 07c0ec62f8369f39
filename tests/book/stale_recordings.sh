#!/usr/bin/env bash
# scripts/stale-recordings on a small repository of its own: a recording goes stale when the code
# of its chapter, or of a chapter it links, changes after it; changes to comments alone (// and
# /* */ lines, # lines in CMake files, a code line's trailing // comment) and to pages leave it
# current; a code line that starts with '*' is code, and so is a // inside a string, and two
# code lines swapped.
#   tests/book/stale_recordings.sh    (CTest: recordings.stale_rule)
set -uo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/stale-recordings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
cd "$work" || exit 1
git init -q . && git config user.email t@t && git config user.name t
mkdir -p chapters/01_one chapters/02_two common cmake plots/01_one plots/02_two
echo 'book_chapter_library(ch01_one_lib SOURCES a.cpp)' >chapters/01_one/CMakeLists.txt
echo 'target_link_libraries(ch02_two ch01_one_lib)' >chapters/02_two/CMakeLists.txt
printf 'int f(int* p) {\n  // twice\n  *p = 2;\n  return 1;\n}\n' >chapters/01_one/a.cpp
echo 'int g() { return 2; }' >chapters/02_two/b.cpp
echo 'x' >common/c.hpp
echo 'project(t)' >CMakeLists.txt
commit() { git add -A && git commit -qm "$1"; }
# record CHAPTER...: recordings of the chapters that name the commit at HEAD, committed.
record() {
  local at c
  at=$(git rev-parse --short=12 HEAD)
  for c in "$@"; do printf 'header\n  commit   %s\n' "$at" >"plots/$c/output.txt"; done
  commit "recorded $*"
}
commit base
record 01_one 02_two

# check NAME WANT_RC WANT_TEXT: the script's exit code and a line it must print.
check() {
  local out rc
  out=$(STALE_ROOT=$work "$script" 2>&1)
  rc=$?
  if [ "$rc" != "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
    echo "FAILED: $1: exit $rc (wanted $2), wanted a line with '$3'; it printed:"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}

check "nothing changed" 0 "0 chapter(s)"
printf 'int f(int* p) {\n  // twice, as the test wants\n  /* and a block */\n  *p = 2;\n  return 1;\n}\n' >chapters/01_one/a.cpp
echo '# a comment' >>chapters/01_one/CMakeLists.txt
echo 'A page.' >chapters/01_one/README.md
commit comments
check "comments and pages only" 0 "changed comments only"
printf 'int f(int* p) {\n  // twice, as the test wants\n  /* and a block */\n  *p = 2;     // a trailing comment\n  return 1;\n}\n' >chapters/01_one/a.cpp
commit "a trailing comment"
check "a trailing comment added" 0 "changed comments only"
sed -i 's|\*p = 2;     // a trailing comment|*p = 2;  // the trailing comment, reworded|' chapters/01_one/a.cpp
commit "a trailing comment reworded"
check "a trailing comment reworded and realigned" 0 "changed comments only"
printf 'const char* u = "http://a"; // where\n' >chapters/02_two/c.cpp
commit "a string"
record 02_two
check "recorded again" 0 "0 chapter(s)"
printf 'const char* u = "http://b"; // where\n' >chapters/02_two/c.cpp
commit "a string with // in it"
check "a change inside a string after its //" 1 "02_two: recorded at"
printf 'const char* u = "http://a"; // where\n' >chapters/02_two/c.cpp
commit "the string back"
check "the string back" 0 "0 chapter(s)"
printf 'int h(int a) {\n  a += 1;\n  a *= 2;\n  return a;\n}\n' >chapters/02_two/d.cpp
commit "a function"
record 02_two
printf 'int h(int a) {\n  a *= 2;\n  a += 1;\n  return a;\n}\n' >chapters/02_two/d.cpp
commit "two lines swapped"
check "two code lines swapped" 1 "02_two: recorded at"
printf 'int h(int a) {\n  a += 1;\n  a *= 2;\n  return a;\n}\n' >chapters/02_two/d.cpp
commit "the lines back"
check "the lines back" 0 "0 chapter(s)"
sed -i 's/\*p = 2;  /*p = 3;  /' chapters/01_one/a.cpp
commit code
check "a code line starting with '*'" 1 "01_one: recorded at"
check "the chapter that links it" 1 "02_two: recorded at"
# A difference larger than a pipe holds: the rule must read it all (an early exit would stop git
# diff with SIGPIPE, and the script with it, before it says anything).
seq 1 200000 | sed 's/.*/int v& = &;/' >chapters/01_one/big.cpp
commit big
check "a difference larger than a pipe" 1 "01_one: recorded at"
exit $((failures > 0))
