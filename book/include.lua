-- include.lua: fills code blocks that carry an `include` attribute with text taken
-- from the repository, and refuses to build when the copy kept in the markdown
-- (for readers on GitHub) no longer matches it.
--
--   ```{.cpp include="chapters/01_rnn/rnn_kernels.cu" snippet="warp_step"}
--   ```{.console include="plots/01_rnn/output.txt" section="2"}   -- or "header", "summary"
--   ```{.cpp include="chapters/01_rnn/small.cu"}                   -- the whole file
--   ```{.console include="plots/07_reverse_scan/output.txt" section="2" fold="checks plots"}
--        fold: "checks" folds long runs of passed checks into one line,
--              "plots" drops the character plots (the page shows the SVG)
--
-- Environment:
--   BOOK_ROOT      directory the `include` paths are relative to (default: the cwd)
--   BOOK_LISTINGS  "extract": no stale check and no decoration; each include block
--                  keeps its attributes, gets the fresh text, and the markdown copy
--                  in attribute `book-copy`. scripts/sync-listings reads that as JSON.
--
-- All problems of a page are reported together, then pandoc exits 1.

local root = os.getenv("BOOK_ROOT") or "."
local extract_mode = os.getenv("BOOK_LISTINGS") == "extract"
local page = PANDOC_STATE.input_files[1] or "<stdin>"
local problems = {}

local function problem(msg) problems[#problems + 1] = msg end

-- Lines of a file without line terminators, or nil if it cannot be read.
local function read_lines(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  local lines = {}
  for l in s:gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  local tail = s:match("([^\n]+)$")        -- last line without a final newline
  if tail then lines[#lines + 1] = tail end
  return lines
end

-- Trailing whitespace and CRs carry no meaning in a listing and editors strip
-- them from the markdown copy, so they are dropped before anything is compared.
local function rstrip(l) return (l:gsub("[ \t\r]+$", "")) end

-- Programs may colour their output; escape sequences would show up as garbage.
local function strip_ansi(l) return (l:gsub("\27%[[%d;?]*[A-Za-z]", "")) end

-- Drop blank lines at both ends, then the whitespace prefix shared by all
-- non-blank lines (compared character by character, so tabs and spaces are
-- never mixed up).
local function tidy(lines)
  local first, last = 1, #lines
  while first <= last and lines[first] == "" do first = first + 1 end
  while last >= first and lines[last] == "" do last = last - 1 end
  local prefix
  for i = first, last do
    local l = lines[i]
    if l ~= "" then
      local ws = l:match("^[ \t]*")
      if not prefix then
        prefix = ws
      else
        local n = 0
        while n < #prefix and n < #ws and prefix:byte(n + 1) == ws:byte(n + 1) do n = n + 1 end
        prefix = prefix:sub(1, n)
      end
    end
  end
  local out = {}
  for i = first, last do out[#out + 1] = lines[i]:sub(#(prefix or "") + 1) end
  return out
end

-- Region between `[snippet:NAME]` and `[/snippet:NAME]`. Marker lines of other
-- snippets nested inside are dropped too, so regions may overlap freely.
local function snippet(lines, name, where)
  local open_tag, close_tag = "[snippet:" .. name .. "]", "[/snippet:" .. name .. "]"
  local out, state = {}, "before"
  for _, l in ipairs(lines) do
    if l:find(close_tag, 1, true) then
      if state ~= "inside" then return nil, "closing marker without opening marker in " .. where end
      state = "after"
    elseif l:find(open_tag, 1, true) then
      if state ~= "before" then return nil, "opened twice in " .. where end
      state = "inside"
    elseif state == "inside" and not (l:find("[snippet:", 1, true) or l:find("[/snippet:", 1, true)) then
      out[#out + 1] = l
    end
  end
  if state == "before" then return nil, "not found in " .. where end
  if state == "inside" then return nil, "has no closing marker in " .. where end
  return out
end

-- One part of a recorded program output: "header" (before [1]), "N" (from the
-- line `[N] ...` to the next `[M] ...` or the summary), or "summary" (from the
-- line starting with `━━ Summary` to the end).
local SUMMARY = "━━ Summary"
local function output_section(lines, which, where)
  local function kind(l)
    if l:sub(1, #SUMMARY) == SUMMARY then return "summary" end
    return l:match("^%[(%d+)%]%s") or l:match("^%[(%d+)%]$")
  end
  local out, on = {}, (which == "header")
  for _, l in ipairs(lines) do
    local k = kind(l)
    if k then
      if on and which ~= "summary" then break end   -- the wanted part has ended
      on = (k == which)
    end
    if on then out[#out + 1] = l end
  end
  if #out == 0 then return nil, "not found in " .. where end
  return out
end

-- A figure the program drew also appears in its output as a character plot,
-- after the line `figure NAME: TITLE`; the page shows the SVG instead. gnuplot's
-- plot is a title row (and a key, if it sits on top), a frame (rows with `|` or
-- `+-`, top and bottom borders `+---`), then deeper-indented rows under it: tick
-- labels, axis label, key.
local function plot_end(lines, i)
  local top
  for k = i, math.min(i + 8, #lines) do
    local l = lines[k]
    if l:find("+---", 1, true) then top = k break end
    if l:match("^%S") or l:match("^%s*[✔✘] ") or l:match("^%s*figure ") then break end   -- not a plot
  end
  if not top then return i end
  local k = top
  while k + 1 <= #lines and (lines[k + 1]:find("|", 1, true) or lines[k + 1]:find("+-", 1, true)) do k = k + 1 end
  local function deep(l) return l and l:match("^     +%S") end
  while deep(lines[k + 1]) or (lines[k + 1] == "" and deep(lines[k + 2])) do k = k + 1 end
  return k + 1
end

local function fold_plots(lines)
  local out, i = {}, 1
  while i <= #lines do
    local l = lines[i]
    out[#out + 1] = l
    i = i + 1
    if l:match("^%s*figure [%w_]+: ") and not l:find(": not drawn: ", 1, true) then i = plot_end(lines, i) end
  end
  return out
end

-- Runs of more than three passed checks keep their first two and last lines; one
-- line in between says how many passed and where the whole list is.
local function fold_checks(lines, source)
  local out, i = {}, 1
  local function passed(l) return l:match("^%s*✔ ") end
  while i <= #lines do
    if passed(lines[i]) then
      local j = i
      while j + 1 <= #lines and passed(lines[j + 1]) do j = j + 1 end
      local n = j - i + 1
      if n > 3 then
        out[#out + 1] = lines[i]
        out[#out + 1] = lines[i + 1]
        out[#out + 1] = string.format("%s✔ … %d more %s passed (every line: %s)",
          lines[i]:match("^%s*"), n - 3, n == 4 and "check" or "checks", source)
        out[#out + 1] = lines[j]
      else
        for k = i, j do out[#out + 1] = lines[k] end
      end
      i = j + 1
    else
      out[#out + 1] = lines[i]
      i = i + 1
    end
  end
  return out
end

-- fold="checks plots" (either word or both) shortens a recorded output.
local function fold(lines, how, source)
  local known = { checks = true, plots = true }
  for word in how:gmatch("%S+") do
    if not known[word] then return nil, "unknown fold '" .. word .. "' (use checks, plots)" end
  end
  if how:find("plots") then lines = fold_plots(lines) end
  if how:find("checks") then lines = fold_checks(lines, source) end
  return lines
end

-- The fresh text for one block, or nil plus a message.
local function extract(attrs)
  local inc, name, sect = attrs["include"], attrs["snippet"], attrs["section"]
  local where = inc
  if name and sect then return nil, "use either snippet= or section=, not both" end
  local lines = read_lines(root .. "/" .. inc)
  if not lines then return nil, "cannot read file " .. inc end
  for i, l in ipairs(lines) do lines[i] = rstrip(l) end
  local sel, err = lines, nil
  if name then
    sel, err = snippet(lines, name, where)
  elseif sect then
    for i, l in ipairs(lines) do lines[i] = rstrip(strip_ansi(l)) end
    sel, err = output_section(lines, sect, where)
  end
  if not sel then return nil, err end
  if attrs["fold"] then
    if not sect then return nil, "fold= applies to recorded output (section=) only" end
    sel, err = fold(sel, attrs["fold"], inc)
    if not sel then return nil, err end
  end
  sel = tidy(sel)
  if #sel == 0 then return nil, "selects no text in " .. where end
  return table.concat(sel, "\n")
end

-- Human-readable name of a block for messages: include=... snippet=...
local function describe(attrs)
  local d = "include=" .. attrs["include"]
  if attrs["snippet"] then d = d .. " snippet=" .. attrs["snippet"] end
  if attrs["section"] then d = d .. " section=" .. attrs["section"] end
  if attrs["fold"] then d = d .. " fold=" .. attrs["fold"] end
  return d
end

local function code_block(cb)
  -- Skylighting (pandoc 2.17) has no CUDA syntax; C++ highlights it well.
  for i, c in ipairs(cb.classes) do
    if c == "cuda" then cb.classes[i] = "cpp" end
  end
  local attrs = cb.attributes
  if not attrs["include"] then return cb end

  local fresh, err = extract(attrs)
  if not fresh then
    problem(string.format("%s: %s: %s", page, describe(attrs), err))
    return cb
  end

  if extract_mode then
    attrs["book-copy"] = cb.text
    cb.text = fresh
    return cb
  end

  if cb.text ~= fresh then
    problem(string.format("stale listing in %s: %s; run scripts/sync-listings", page, describe(attrs)))
  end
  cb.text = fresh    -- render the file's text even when the copy is stale

  -- A small label above the block says where the text comes from.
  local label = attrs["title"] or attrs["include"]
  local is_output = attrs["section"] ~= nil or cb.classes:includes("console")
  for _, k in ipairs({ "include", "snippet", "section", "fold", "title" }) do attrs[k] = nil end
  return pandoc.Div(
    { pandoc.Div({ pandoc.Plain({ pandoc.Code(label) }) }, pandoc.Attr("", { "listing-label" })), cb },
    pandoc.Attr("", { "listing", is_output and "output" or "source" }))
end

return {
  { CodeBlock = code_block },
  {
    Pandoc = function(doc)
      if #problems > 0 then
        for _, p in ipairs(problems) do io.stderr:write(p, "\n") end
        os.exit(1)
      end
      return doc
    end,
  },
}
