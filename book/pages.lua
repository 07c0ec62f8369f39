-- pages.lua: page structure of the book (runs after include.lua).
--
-- Every page: the single `# Title` becomes the page title, the `##` and `###`
-- sections are numbered with the page's label (8b.1, 8b.1.2), prev / contents /
-- next links are added above and below, links to another page's markdown point
-- at its HTML page, and links to other repository files point into the tree.
-- The build fails on a link to a file that does not exist, on an image or link
-- that did not parse (its `![` or `](` left as text), and on math left as text.
-- Contents page (-M book-page=contents): built from the pages' files alone.
--
-- Metadata set by build.sh: book-pages (one "LABEL PAGE SOURCE" per page, in book
-- order: book/pages), book-reader (the pandoc reader format), book-repo (the
-- repository root relative to the book's directory), book-intro (the contents page's
-- introduction, if any); from metadata.yaml: book-title, source-url.

local stringify = pandoc.utils.stringify

-- A metadata value as a list of strings: -M k=a -M k=b gives a list, a single
-- -M k=a a plain string.
local function meta_list(v)
  if v == nil then return {} end
  if type(v) == "string" then return { v } end
  if pandoc.utils.type(v) == "List" then
    local out = {}
    for i, x in ipairs(v) do out[i] = stringify(x) end
    return out
  end
  return { stringify(v) }
end

local function fail(msg)
  io.stderr:write(msg, "\n")
  os.exit(1)
end

-- "8b 08b_x.html chapters/08_selective_scan/ADVANCED.md" -> a page
local function page_info(entry)
  local label, href, path = entry:match("^(%S+) (%S+) (%S+)$")
  if not label then fail("pages.lua: bad book-pages entry '" .. entry .. "'") end
  return { label = label, href = href, path = path, dir = path:match("^(.*)/[^/]*$") or "." }
end
-- Heading text that can sit inside a link: no nested links, no footnotes.
local function link_safe(inlines)
  return pandoc.Span(inlines):walk({
    Link = function(l) return l.content end,
    Note = function() return {} end,
  }).content
end

-- The chapter's H1 (title inlines) and its H2 headers, read the same way the
-- chapter page itself is read so that the identifiers agree.
local function outline(ch, reader)
  local f = io.open(ch.path, "rb")
  if not f then fail("cannot read " .. ch.path) end
  local doc = pandoc.read(f:read("a"), reader)
  f:close()
  local title, sections = nil, {}
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      if title then fail(ch.path .. ": more than one level-1 heading ('# ...'); use '##' for sections") end
      title = b.content
    elseif b.t == "Header" and b.level == 2 then
      sections[#sections + 1] = b
    end
  end
  if not title then fail(ch.path .. ": no '# Title' heading") end
  return title, sections
end

local function number_span(text)
  return pandoc.Span({ pandoc.Str(text) }, pandoc.Attr("", { "chapter-number" }))
end

-- ../02_scan/README.md#x, relative to the chapter directory, -> 02_scan.html#x
local function normalize(dir, target)
  local parts = {}
  for p in (dir .. "/" .. target):gmatch("[^/]+") do
    if p == ".." then
      if #parts == 0 then return nil end   -- leaves the repository
      parts[#parts] = nil
    elseif p ~= "." then
      parts[#parts + 1] = p
    end
  end
  return table.concat(parts, "/")
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

local problems = {}

-- A link to another page's markdown goes to that page; a link to any other file of
-- the repository goes to the hosted source (source-url) or into the tree.
local function rewrite_link(link, pg, pages, source_url, repo)
  local target = link.target
  if target == "" or target:match("^#") or target:match("^%a[%w+.-]*:") or target:match("^/") then
    return nil
  end
  local path, frag = target:match("^([^#]*)(#?.*)$")
  local repo_path = normalize(pg.dir, path)
  if not repo_path then
    problems[#problems + 1] = pg.path .. ": link to " .. target .. " leaves the repository"
    return nil
  end
  for _, other in ipairs(pages) do
    if other.path == repo_path or other.path == repo_path .. "/README.md" then
      link.target = (other.path == pg.path and frag ~= "") and frag or (other.href .. frag)
      return link
    end
  end
  if not exists(repo_path) then
    problems[#problems + 1] = pg.path .. ": link to " .. target .. ": no such file in the repository"
    return nil
  end
  if source_url ~= "" then
    link.target = source_url:gsub("/+$", "") .. "/" .. repo_path .. frag
  else
    link.target = repo .. "/" .. repo_path .. frag
  end
  return link
end

-- Markdown that did not parse stays as text: `![alt [x]](file.svg)` with a bracket
-- in the alt text, or `$1 + $` whose closing dollar follows a space.
local function check_text(doc, pg)
  local function near(s) return (s:gsub("%s+", " "):sub(1, 60)) end
  doc:walk({
    Str = function(s)
      if s.text:find("![", 1, true) or s.text:find("](", 1, true) then
        problems[#problems + 1] = pg.path .. ": an image or link did not parse, near '" .. near(s.text) .. "'"
      elseif s.text:find("$", 1, true) then
        problems[#problems + 1] = pg.path .. ": math left as text (a '$' in the text), near '" .. near(s.text) .. "'"
      end
    end,
  })
end

-- An image's alt text is its caption as plain text, and pandoc would write the caption's math
-- there as raw TeX ("\bar A_t"). Where the caption has math, the alt text is the caption written
-- by pandoc's plain writer (math as Unicode: "Ā_(t)"), with a sub- or superscript in Unicode
-- where each of its characters has one ("Āₜ", "e^(kΔA_(n))" stays as it is).
local SUB = { ["0"] = "₀", ["1"] = "₁", ["2"] = "₂", ["3"] = "₃", ["4"] = "₄", ["5"] = "₅", ["6"] = "₆",
  ["7"] = "₇", ["8"] = "₈", ["9"] = "₉", ["+"] = "₊", ["−"] = "₋", ["-"] = "₋", ["="] = "₌", ["("] = "₍",
  [")"] = "₎", a = "ₐ", e = "ₑ", h = "ₕ", i = "ᵢ", j = "ⱼ", k = "ₖ", l = "ₗ", m = "ₘ", n = "ₙ", o = "ₒ",
  p = "ₚ", r = "ᵣ", s = "ₛ", t = "ₜ", u = "ᵤ", v = "ᵥ", x = "ₓ" }
local SUP = { ["0"] = "⁰", ["1"] = "¹", ["2"] = "²", ["3"] = "³", ["4"] = "⁴", ["5"] = "⁵", ["6"] = "⁶",
  ["7"] = "⁷", ["8"] = "⁸", ["9"] = "⁹", ["+"] = "⁺", ["−"] = "⁻", ["-"] = "⁻", ["="] = "⁼", ["("] = "⁽",
  [")"] = "⁾", i = "ⁱ", n = "ⁿ", k = "ᵏ", t = "ᵗ", x = "ˣ", T = "ᵀ" }

local function scripted(text, map)
  local out = {}
  for _, c in utf8.codes(text) do
    local s = map[utf8.char(c)]
    if not s then return nil end
    out[#out + 1] = s
  end
  return table.concat(out)
end

local function plain_alt(caption)
  local text = pandoc.write(pandoc.Pandoc({ pandoc.Plain(caption) }), "plain", { wrap_text = "wrap-none" })
  text = text:gsub("_%(([^()]*)%)", function(x) return scripted(x, SUB) end)
  text = text:gsub("%^%(([^()]*)%)", function(x) return scripted(x, SUP) end)
  for c = 0x2000, 0x200A do text = text:gsub(utf8.char(c), " ") end  -- texmath's spaces around operators
  return (text:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

local function image_alt(doc)
  return doc:walk({
    Image = function(img)
      local has_math = false
      pandoc.Span(img.caption):walk({ Math = function() has_math = true end })
      if has_math and not img.attributes["alt"] then
        img.attributes["alt"] = plain_alt(img.caption)
        return img
      end
    end,
  })
end

-- Section numbers from the page's label: 8b.1, 8b.2, 8b.2.1 (no number for
-- {.unnumbered}), as a span in the header, so the table of contents shows them.
local function number_sections(doc, pg)
  local k, j = 0, 0
  return doc:walk({
    Header = function(h)
      if h.level < 2 or h.level > 3 or h.classes:includes("unnumbered") then return nil end
      local n
      if h.level == 2 then k, j = k + 1, 0; n = pg.label .. "." .. k
      else j = j + 1; n = pg.label .. "." .. k .. "." .. j end
      table.insert(h.content, 1, pandoc.Space())
      table.insert(h.content, 1, pandoc.Span({ pandoc.Str(n) }, pandoc.Attr("", { "header-section-number" })))
      return h
    end,
  })
end

local function nav_block(chapters, i, reader, where)
  local items = {}
  local function add(ch, rel, arrow_left, arrow_right)
    local title = outline(ch, reader)
    local content = { pandoc.Str(arrow_left), number_span(ch.label), pandoc.Space() }
    for _, x in ipairs(link_safe(title)) do content[#content + 1] = x end
    content[#content + 1] = pandoc.Str(arrow_right)
    items[#items + 1] = pandoc.Span({ pandoc.Link(content, ch.href, "", pandoc.Attr("", {}, { { "rel", rel } })) },
      pandoc.Attr("", { rel }))
  end
  if chapters[i - 1] then add(chapters[i - 1], "prev", "← ", "") else
    items[#items + 1] = pandoc.Span({}, pandoc.Attr("", { "prev" })) end
  items[#items + 1] = pandoc.Span({ pandoc.Link({ pandoc.Str("Contents") }, "index.html", "", pandoc.Attr("", {}, { { "rel", "index" } })) },
    pandoc.Attr("", { "up" }))
  if chapters[i + 1] then add(chapters[i + 1], "next", "", " →") else
    items[#items + 1] = pandoc.Span({}, pandoc.Attr("", { "next" })) end
  return pandoc.Div({ pandoc.Plain(items) }, pandoc.Attr("", { "booknav", where }))
end

local function chapter_page(doc, chapters, reader, book_title)
  local me = PANDOC_STATE.input_files[1]
  local idx
  for i, ch in ipairs(chapters) do
    if ch.path == me then idx = i end
  end
  if not idx then fail("pages.lua: " .. tostring(me) .. " is not in book/pages") end
  local ch = chapters[idx]

  -- Move the H1 into the title block.
  local blocks, title = {}, nil
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      if title then fail(ch.path .. ": more than one level-1 heading ('# ...'); use '##' for sections") end
      title = b.content
    else
      blocks[#blocks + 1] = b
    end
  end
  if not title then fail(ch.path .. ": the first line must be '# Title'") end
  doc.blocks = blocks

  local shown = { number_span(ch.label), pandoc.Space() }
  for _, x in ipairs(title) do shown[#shown + 1] = x end
  doc.meta.title = pandoc.MetaInlines(shown)
  -- Label first in <title>: browser tabs cut long titles short.
  doc.meta.pagetitle = pandoc.MetaString(ch.label .. " " .. stringify(link_safe(title)) .. " – " .. book_title)

  check_text(doc, ch)
  local source_url = doc.meta["source-url"] and stringify(doc.meta["source-url"]) or ""
  local repo = doc.meta["book-repo"] and stringify(doc.meta["book-repo"]) or "."
  doc = doc:walk({ Link = function(l) return rewrite_link(l, ch, chapters, source_url, repo) end })
  doc = number_sections(doc, ch)
  doc = image_alt(doc)
  if #problems > 0 then fail(table.concat(problems, "\n")) end

  -- After the walks: these links are already the pages' addresses.
  doc.meta["include-before"] = pandoc.MetaBlocks({ nav_block(chapters, idx, reader, "top") })
  doc.meta["include-after"] = pandoc.MetaBlocks({ nav_block(chapters, idx, reader, "bottom") })
  return doc
end

-- The contents page's introduction (book/introduction.md, when the tree has one): read as a
-- page in book/ would be, its links resolved and checked the same way.
local function introduction(doc, chapters, reader)
  local path = doc.meta["book-intro"] and stringify(doc.meta["book-intro"]) or ""
  if path == "" then return {} end
  local f = io.open(path, "rb")
  if not f then fail("pages.lua: cannot read " .. path) end
  local intro = pandoc.read(f:read("a"), reader)
  f:close()
  local pg = { label = "contents", href = "index.html", path = path, dir = path:match("^(.*)/[^/]*$") or "." }
  check_text(intro, pg)
  local source_url = doc.meta["source-url"] and stringify(doc.meta["source-url"]) or ""
  local repo = doc.meta["book-repo"] and stringify(doc.meta["book-repo"]) or "."
  intro = intro:walk({ Link = function(l) return rewrite_link(l, pg, chapters, source_url, repo) end })
  if #problems > 0 then fail(table.concat(problems, "\n")) end
  return intro.blocks
end

local function contents_page(doc, chapters, reader, book_title)
  local items = {}
  for _, ch in ipairs(chapters) do
    local title, sections = outline(ch, reader)
    local head = { number_span(ch.label), pandoc.Space(), pandoc.Link(link_safe(title), ch.href) }
    local subs, k = {}, 0
    for _, h in ipairs(sections) do
      local text = {}
      if not h.classes:includes("unnumbered") then      -- number_sections skips these too
        k = k + 1
        text = { pandoc.Span({ pandoc.Str(ch.label .. "." .. k) }, pandoc.Attr("", { "section-number" })), pandoc.Space() }
      end
      for _, x in ipairs(link_safe(h.content)) do text[#text + 1] = x end
      subs[#subs + 1] = { pandoc.Plain({ pandoc.Link(text, ch.href .. "#" .. h.identifier) }) }
    end
    local item = { pandoc.Plain(head) }
    if #subs > 0 then item[2] = pandoc.BulletList(subs) end
    items[#items + 1] = item
  end
  local intro = introduction(doc, chapters, reader)
  doc.blocks = {}
  if #intro > 0 then
    doc.blocks[1] = pandoc.Div(intro, pandoc.Attr("", { "book-intro" }))
    doc.blocks[2] = pandoc.Header(2, { pandoc.Str("Contents") }, pandoc.Attr("contents"))
  end
  doc.blocks[#doc.blocks + 1] =
    pandoc.Div({ pandoc.BulletList(items) }, pandoc.Attr("book-contents", { "book-contents" }))
  doc.meta.title = pandoc.MetaString(book_title)
  return doc
end

function Pandoc(doc)
  local reader = doc.meta["book-reader"] and stringify(doc.meta["book-reader"]) or "markdown"
  local book_title = doc.meta["book-title"] and stringify(doc.meta["book-title"]) or "Book"
  local pages = {}
  for i, p in ipairs(meta_list(doc.meta["book-pages"])) do pages[i] = page_info(p) end
  if #pages == 0 then fail("pages.lua: no book-pages given") end
  if doc.meta["book-page"] and stringify(doc.meta["book-page"]) == "contents" then
    return contents_page(doc, pages, reader, book_title)
  end
  return chapter_page(doc, pages, reader, book_title)
end
