-- pages.lua: page structure of the book (runs after include.lua).
--
-- Chapter pages: the single `# Title` becomes the page title (so that -N numbers
-- the H2s as N.1, N.2 via --number-offset), prev / contents / next links are
-- added above and below, and links to other chapters' README.md are pointed at
-- their HTML pages.
-- Contents page (-M book-page=contents): built from the chapter files alone.
--
-- Metadata set by build.sh: book-chapters (list of chapters/NN_slug/README.md,
-- in book order), book-reader (the pandoc reader format); from metadata.yaml:
-- book-title, source-url.

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

-- chapters/01_rnn/README.md -> slug "01_rnn", number 1, page "01_rnn.html"
local function chapter_info(path)
  local slug = path:match("chapters/([^/]+)/README%.md$")
  local num = slug and slug:match("^(%d+)_")
  if not num then fail(path .. ": chapter directories must be named chapters/NN_slug") end
  return { path = path, slug = slug, number = tonumber(num), href = slug .. ".html" }
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

local function rewrite_link(link, ch, source_url)
  local target = link.target
  if target == "" or target:match("^#") or target:match("^%a[%w+.-]*:") or target:match("^/") then
    return nil
  end
  local path, frag = target:match("^([^#]*)(#?.*)$")
  local repo_path = normalize("chapters/" .. ch.slug, path)
  if not repo_path then return nil end
  local slug = repo_path:match("^chapters/([^/]+)/README%.md$") or repo_path:match("^chapters/([^/]+)$")
  if slug and slug:match("^%d+_") then
    link.target = (slug == ch.slug and frag ~= "") and frag or (slug .. ".html" .. frag)
    return link
  end
  if source_url ~= "" then
    link.target = source_url:gsub("/+$", "") .. "/" .. repo_path .. frag
    return link
  end
  return nil
end

local function nav_block(chapters, i, reader, where)
  local items = {}
  local function add(ch, rel, arrow_left, arrow_right)
    local title = outline(ch, reader)
    local content = { pandoc.Str(arrow_left), number_span(tostring(ch.number)), pandoc.Space() }
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
  if not idx then fail("pages.lua: " .. tostring(me) .. " is not in book-chapters") end
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

  local shown = { number_span(tostring(ch.number)), pandoc.Space() }
  for _, x in ipairs(title) do shown[#shown + 1] = x end
  doc.meta.title = pandoc.MetaInlines(shown)
  -- Chapter first in <title>: browser tabs cut long titles short.
  doc.meta.pagetitle = pandoc.MetaString(ch.number .. " " .. stringify(link_safe(title)) .. " – " .. book_title)

  doc.meta["include-before"] = pandoc.MetaBlocks({ nav_block(chapters, idx, reader, "top") })
  doc.meta["include-after"] = pandoc.MetaBlocks({ nav_block(chapters, idx, reader, "bottom") })

  local source_url = doc.meta["source-url"] and stringify(doc.meta["source-url"]) or ""
  doc = doc:walk({ Link = function(l) return rewrite_link(l, ch, source_url) end })
  return doc
end

local function contents_page(doc, chapters, reader, book_title)
  local items = {}
  for _, ch in ipairs(chapters) do
    local title, sections = outline(ch, reader)
    local head = { number_span(tostring(ch.number)), pandoc.Space(), pandoc.Link(link_safe(title), ch.href) }
    local subs, k = {}, 0
    for _, h in ipairs(sections) do
      local text = {}
      if not h.classes:includes("unnumbered") then      -- -N skips these too
        k = k + 1
        text = { pandoc.Span({ pandoc.Str(ch.number .. "." .. k) }, pandoc.Attr("", { "section-number" })), pandoc.Space() }
      end
      for _, x in ipairs(link_safe(h.content)) do text[#text + 1] = x end
      subs[#subs + 1] = { pandoc.Plain({ pandoc.Link(text, ch.href .. "#" .. h.identifier) }) }
    end
    local item = { pandoc.Plain(head) }
    if #subs > 0 then item[2] = pandoc.BulletList(subs) end
    items[#items + 1] = item
  end
  doc.blocks = { pandoc.Div({ pandoc.BulletList(items) }, pandoc.Attr("book-contents", { "book-contents" })) }
  doc.meta.title = pandoc.MetaString(book_title)
  return doc
end

function Pandoc(doc)
  local reader = doc.meta["book-reader"] and stringify(doc.meta["book-reader"]) or "markdown"
  local book_title = doc.meta["book-title"] and stringify(doc.meta["book-title"]) or "Book"
  local chapters = {}
  for i, p in ipairs(meta_list(doc.meta["book-chapters"])) do chapters[i] = chapter_info(p) end
  if #chapters == 0 then fail("pages.lua: no book-chapters given") end
  if doc.meta["book-page"] and stringify(doc.meta["book-page"]) == "contents" then
    return contents_page(doc, chapters, reader, book_title)
  end
  return chapter_page(doc, chapters, reader, book_title)
end
