#!/usr/bin/env bash
# scripts/triton-cache on a stand-in cache: pack writes parts, unpack restores every file byte for
# byte under another cache directory and points each group file at its members' new paths; with
# no parts, unpack does nothing and succeeds; a bad command line is refused.
#   tests/book/triton_cache.sh    (CTest: scripts.triton_cache)
set -uo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/triton-cache
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

mkdir -p "$work/old/HASH1" "$work/old/HASH2"
echo '{"name": "k1"}' >"$work/old/HASH1/k1.json"
head -c 300000 /dev/urandom >"$work/old/HASH1/k1.cubin"
echo '{"name": "k2"}' >"$work/old/HASH2/k2.json"
printf '{"child_paths": {"k1.json": "%s", "k1.cubin": "%s"}}' "$work/old/HASH1/k1.json" "$work/old/HASH1/k1.cubin" \
  >"$work/old/HASH1/__grp__k1.json"

TRITON_CACHE_DIR=$work/old "$script" pack "$work/carry" >/dev/null || fail "pack exited non-zero"
ls "$work"/carry/triton-cache.tgz.part-* >/dev/null 2>&1 || fail "pack wrote no part"
TRITON_CACHE_DIR=$work/new "$script" unpack "$work/carry" >/dev/null || fail "unpack exited non-zero"
for f in HASH1/k1.json HASH1/k1.cubin HASH2/k2.json; do
  cmp -s "$work/old/$f" "$work/new/$f" || fail "$f differs after the round trip"
done
python3 - "$work" <<'PY' || fail "the group file does not point at the new cache"
import json, sys
work = sys.argv[1]
paths = json.load(open(f"{work}/new/HASH1/__grp__k1.json"))["child_paths"]
assert paths == {"k1.json": f"{work}/new/HASH1/k1.json", "k1.cubin": f"{work}/new/HASH1/k1.cubin"}, paths
PY
out=$(TRITON_CACHE_DIR=$work/none "$script" unpack "$work/empty") || fail "unpack of nothing exited non-zero"
grep -q "nothing to unpack" <<<"$out" || fail "unpack of nothing said: $out"
[ ! -e "$work/none" ] || fail "unpack of nothing made a cache"
"$script" frobnicate "$work" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad command was not refused with exit 2"
[ $failures -eq 0 ] && echo "ok: triton-cache packs, unpacks and refuses as it should"
exit $((failures > 0))
