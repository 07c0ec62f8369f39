#!/usr/bin/env bash
# scripts/official-fastest on two stand-in passes of triton_bench.py ssd: each figure is the least
# of the passes' (taken from whichever pass has it), the rows keep their order, and passes whose
# rows differ are refused.
#   tests/book/official_fastest.sh    (CTest: scripts.official_fastest)
set -uo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/official-fastest
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
header=device,what,dtype,shape,fwd_ms,fwd_bwd_ms,fwd_kernels_ms,fwd_bwd_kernels_ms
printf '%s\nGPU,ssd,bf16,1x512x24x64x128,1.0814,4.5393,0.0398,0.2065\nGPU,ssd,fp32,8x2048x24x64x128,1.2555,3.7857,0.4346,2.0932\n' \
  "$header" >"$work/pass1.csv"
printf '%s\nGPU,ssd,bf16,1x512x24x64x128,0.5520,4.6000,0.0235,0.1650\nGPU,ssd,fp32,8x2048x24x64x128,1.3000,3.7000,0.4400,2.0000\n' \
  "$header" >"$work/pass2.csv"
expected=$(printf '%s\nGPU,ssd,bf16,1x512x24x64x128,0.5520,4.5393,0.0235,0.1650\nGPU,ssd,fp32,8x2048x24x64x128,1.2555,3.7000,0.4346,2.0000' "$header")
merged=$("$script" "$work/pass1.csv" "$work/pass2.csv" 2>"$work/err") || fail "two passes: exited non-zero"
[ "$merged" = "$expected" ] || fail "two passes: got
$merged"
grep -q "differ most at bf16 1x512x24x64x128 fwd_ms: 1.96 times" "$work/err" || fail "two passes: stderr $(cat "$work/err")"
[ "$("$script" "$work/pass1.csv" 2>/dev/null)" = "$(cat "$work/pass1.csv")" ] || fail "one pass: not itself"
sed 's/fp32/fp16/' "$work/pass2.csv" >"$work/other.csv"
"$script" "$work/pass1.csv" "$work/other.csv" >/dev/null 2>"$work/err" && fail "rows that differ: accepted"
grep -q "rows differ" "$work/err" || fail "rows that differ: stderr $(cat "$work/err")"
head -2 "$work/pass2.csv" >"$work/short.csv"
"$script" "$work/pass1.csv" "$work/short.csv" >/dev/null 2>&1 && fail "fewer rows: accepted"
[ $failures -eq 0 ] && echo "official-fastest: every check passed"
exit $((failures > 0))
