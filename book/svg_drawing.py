"""The drawing primitives of the book's hand-drawn figures (chapters/*/figures/draw_figures.py):
plain SVG text, no dependencies, one font, stroke and arrow head for every picture, so that the
figures look like one book. A chapter's script imports it with book/ on its path."""

FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"


def svg(width, height, body):
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
            f"width='{width}' height='{height}' {FONT}>\n"
            f"<rect width='{width}' height='{height}' fill='white'/>\n{body}</svg>\n")


def rect(x, y, w, h, fill, stroke="#34495e", width=1.5, rx=6, dash=None):
    d = f" stroke-dasharray='{dash}'" if dash else ""
    return (f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='{rx}' fill='{fill}' "
            f"stroke='{stroke}' stroke-width='{width}'{d}/>\n")


def text(x, y, s, size=15, anchor="start", weight="normal", fill="#1d2b3a", mono=False):
    family = " font-family='DejaVu Sans Mono, Menlo, monospace'" if mono else ""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (f"<text x='{x}' y='{y}' font-size='{size}' text-anchor='{anchor}' "
            f"font-weight='{weight}' fill='{fill}'{family}>{s}</text>\n")


def line(x1, y1, x2, y2, dash="5,4", color="#7f8c8d"):
    return (f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{color}' "
            f"stroke-width='1.5' stroke-dasharray='{dash}'/>\n")


def arrow(x1, y1, x2, y2, color="#34495e"):
    return (f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{color}' stroke-width='2' "
            f"marker-end='url(#head)'/>\n")


ARROW_HEAD = ("<defs><marker id='head' markerWidth='10' markerHeight='8' refX='9' refY='4' "
              "orient='auto'><path d='M0,0 L10,4 L0,8 z' fill='#34495e'/></marker></defs>\n")
