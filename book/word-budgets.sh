#!/usr/bin/env bash
# Whether the book's pages keep to their word budgets (book/word-budgets): prints each budget's
# words against its limit, and exits 1 if any is over.
#   book/word-budgets.sh      (CTest: book.word_budgets)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
declare -A source_of
while read -r label page source; do
  [[ -z "$label" || "$label" == \#* ]] && continue
  source_of[$label]=$source
done <book/pages
over=0
while read -r limit labels; do
  [[ -z "$limit" || "$limit" == \#* ]] && continue
  words=0
  for label in $labels; do
    source=${source_of[$label]:-}
    if [ -z "$source" ]; then
      echo "book/word-budgets.sh: page $label is not in book/pages" >&2
      exit 2
    fi
    words=$((words + $(pandoc -t plain "$source" 2>/dev/null | wc -w)))
  done
  verdict=ok
  if [ "$words" -gt "$limit" ]; then verdict=OVER; over=1; fi
  printf '%-4s %6d of %6d words: pages %s\n' "$verdict" "$words" "$limit" "$labels"
done <book/word-budgets
exit $over
