#!/usr/bin/env bash
# Which listings, outputs and equations of the rendered book do not fit the page: renders each
# page in headless Chromium at a window WIDTH px wide and prints every <pre>, display <math> and
# <table> whose content is wider than its box (the reader would have to scroll it sideways), or
# whose box runs past the window. Exits 1 if there is any.
#
#   book/build.sh /tmp/book && book/check-widths.sh /tmp/book            # every page, 1280 px
#   WIDTH=1024 book/check-widths.sh /tmp/book 05_cumsum_scan.html        # one page, narrower
#
# Each line: PAGE  KIND  SECTION  CONTENT/BOX px  the element's first characters.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BOOK_DIR [PAGE.html...]" >&2
  exit 2
fi
BOOK=$(cd "$1" && pwd)
shift
WIDTH=${WIDTH:-1280}
CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROMIUM" ]; then
  echo "book/check-widths.sh: no Chromium found; install it with: apt-get install -y chromium" >&2
  exit 2
fi
if [ $# -eq 0 ]; then
  mapfile -t pages < <(cd "$BOOK" && ls -- *.html)
else
  pages=("$@")
fi

# The page loads in an iframe of a small host page, whose script measures it once it has loaded
# and writes the findings into the host's DOM, which --dump-dom prints. File pages may read one
# another only with --allow-file-access-from-files.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for page in "${pages[@]}"; do
  cat >"$work/host.html" <<EOF
<!doctype html><meta charset="utf-8"><body style="margin:0">
<iframe id="f" style="width:${WIDTH}px;height:2000px;border:0"></iframe><pre id="out"></pre>
<script>
const frame = document.getElementById("f");
frame.onload = () => {
  const doc = frame.contentDocument, lines = [];
  const section = (el) => {  // the nearest heading above the element
    const all = [...doc.querySelectorAll("h2, h3")];
    let h = null;
    for (const x of all) if (x.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) h = x;
    const n = h && h.querySelector(".header-section-number");
    return n ? n.textContent : "-";
  };
  for (const [kind, sel] of [["pre", "pre, div.sourceCode"], ["math", "math[display=block]"], ["table", "table"]]) {
    for (const el of doc.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      // A table has no scrollbar of its own: its box itself is what grows past the text column.
      const box = kind === "table" ? el.parentElement.clientWidth : el.clientWidth;
      const content = kind === "table" ? r.width : el.scrollWidth;
      if (content > box + 1 || r.right > ${WIDTH} + 1)
        lines.push([kind, section(el), Math.round(content) + "/" + Math.round(box),
                    el.textContent.replace(/\s+/g, " ").trim().slice(0, 60)].join("\t"));
    }
  }
  document.getElementById("out").textContent = "BEGIN\n" + lines.join("\n") + "\nEND";
};
frame.src = "file://${BOOK}/${page}";
</script>
EOF
  dom=$("$CHROMIUM" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
    --virtual-time-budget=10000 --dump-dom "file://$work/host.html" 2>/dev/null)
  found=$(printf '%s\n' "$dom" | sed -n '/<pre id="out">BEGIN$/,/^END<\/pre>$/p' | sed '1d;$d' | sed '/^$/d')
  if ! printf '%s\n' "$dom" | grep -q '^END</pre>$'; then
    echo "$page: not measured (the page did not load)" >&2
    status=1
    continue
  fi
  if [ -n "$found" ]; then
    printf '%s\n' "$found" | sed "s|^|$page\t|" | sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'
    status=1
  fi
done
exit $status
