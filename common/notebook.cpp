#include "notebook.hpp"

#include "gpu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace common {
namespace {

constexpr const char* kIndent = "    ";
constexpr const char* kRule = "━━";

// Width of a UTF-8 string in terminal columns, counting each code point as one.
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// The widest line the book's pages show whole at 1280 px (book/style.html: program output at
// 0.75rem): longer prose and check lines are broken at a space.
constexpr std::size_t kWidestLine = 150;

// `text` as lines of at most kWidestLine columns, broken at spaces; the lines after the first
// start with `continuation` (a word longer than the limit stays whole).
std::vector<std::string> wrapped(const std::string& text, const std::string& continuation) {
  std::vector<std::string> lines;
  std::string rest = text;
  while (columns(rest) > kWidestLine) {
    // The byte where column kWidestLine ends, then the last space before it.
    std::size_t byte = 0;
    for (std::size_t seen = 0; byte < rest.size(); ++byte)
      if ((rest[byte] & 0xC0) != 0x80 && seen++ == kWidestLine) break;
    const std::size_t space = rest.rfind(' ', byte);
    if (space == std::string::npos || space <= continuation.size()) break;
    lines.push_back(rest.substr(0, space));
    rest = continuation + rest.substr(space + 1);
  }
  lines.push_back(rest);
  return lines;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = columns(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

}  // namespace

std::string summary_line(int passed, int failed, int skipped) {
  std::string summary =
      fmt::format("{} Summary: {} check{} passed, {} failed", kRule, passed, passed == 1 ? "" : "s", failed);
  if (skipped > 0) summary += fmt::format("; {} GPU part{} skipped", skipped, skipped == 1 ? "" : "s");
  return summary + " " + kRule;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &local);
  return text;
}

Notebook::Notebook(const ChapterInfo& info, const CommonOptions& options, std::string command_line)
    : options_(options), out_dir_(options.out_dir.empty() ? "out/" + info.program : options.out_dir), date_(today()) {
  // Printed with the first line of output, not here: a size that does not fit is refused (one
  // line on stderr, exit code 2) before any section, and then no header stands above it.
  std::string rule;
  for (std::size_t i = columns(info.title); i < 76; ++i) rule += "━";
  const std::string device = gpu() ? device_name() : "none (" + no_gpu_reason() + ")";
  std::string build = fmt::format("CUDA architectures {}", BOOK_CUDA_ARCHITECTURES);
  if (info.kernel_count > 0)
    build += "; kernel versions " +
             (info.versions_built.empty() ? fmt::format("1-{}", info.kernel_count) : info.versions_built);
  header_ = fmt::format("{} {} {}\n", kRule, info.title, rule);
  header_line("program", command_line);
  header_line("device", device);
  header_line("build", build);
  header_line("date", date_);
  header_line("seed", std::to_string(options_.seed));
  header_line("output", fmt::format("{}/", out_dir_));
  // The commit a recorded run was built from (scripts/gpu-suite sets BOOK_COMMIT): what the book's
  // pages cite, and what scripts/stale-recordings compares with the chapter's later changes.
  if (const char* commit = std::getenv("BOOK_COMMIT"); commit && *commit) header_line("commit", commit);
}

std::string Notebook::device_name() const {
  if (!gpu_available()) return "none";
  const DeviceInfo& d = gpu_status().device;
  return fmt::format("{} (sm_{}{}, {} SMs, {:.0f} GiB)", d.name, d.compute_major, d.compute_minor, d.multiprocessors,
                     static_cast<double>(d.global_memory_bytes) / (1u << 30));
}

void Notebook::header_line(const std::string& name, const std::string& value) {
  header_ += fmt::format("  {:<8} {}\n", name, value);
}

void Notebook::line(const std::string& text) const {
  if (!header_.empty()) {
    std::fputs(header_.c_str(), stdout);
    header_.clear();
  }
  std::fputs(text.c_str(), stdout);
  std::fputc('\n', stdout);
}

void Notebook::section(const std::string& title) {
  line("");
  line(fmt::format("[{}] {}", ++section_number_, title));
}

void Notebook::text(const std::string& paragraph) {
  if (options_.quiet) return;
  std::size_t start = 0;
  while (start <= paragraph.size()) {
    const std::size_t end = std::min(paragraph.find('\n', start), paragraph.size());
    const std::string text = kIndent + paragraph.substr(start, end - start);
    const std::size_t indent = text.find_first_not_of(' ');
    for (const std::string& piece : wrapped(text, std::string(indent == std::string::npos ? 0 : indent + 4, ' ')))
      line(piece);
    start = end + 1;
  }
}

void Notebook::value(const std::string& name, const std::string& value) {
  if (options_.quiet) return;
  line(fmt::format("{}{} = {}", kIndent, name, value));
}

void Notebook::table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  if (options_.quiet) return;
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = columns(header[c]);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], columns(row[c]));
  auto format_row = [&](const std::vector<std::string>& row) {
    std::string text = kIndent;
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      // Numbers read best right-aligned; the first column is a label.
      const std::size_t gap = width[c] - columns(row[c]);
      text += c == 0 ? pad(row[c], width[c]) : std::string(gap, ' ') + row[c];
      if (c + 1 < row.size()) text += "  ";
    }
    return text;
  };
  line(format_row(header));
  std::string rule = kIndent;
  for (std::size_t c = 0; c < width.size(); ++c)
    rule += std::string(width[c], '-') + (c + 1 < width.size() ? "  " : "");
  line(rule);
  for (const auto& row : rows) line(format_row(row));
}

bool Notebook::check(const std::string& what, const Comparison& comparison,
                     const std::function<std::string(std::size_t)>& where) {
  return check(what, comparison.ok, comparison.summary(where));
}

bool Notebook::check(const std::string& what, bool passed, const std::string& detail) {
  // A long check line breaks after its subject, so that the errors and the tolerance stay together.
  const std::string head = fmt::format("{}{} {}:", kIndent, passed ? "✔" : "✘", what);
  if (columns(head) + 1 + columns(detail) <= kWidestLine) {
    line(head + " " + detail);
  } else {
    for (const std::string& piece : wrapped(head, std::string(6, ' '))) line(piece);
    for (const std::string& piece : wrapped(std::string(6, ' ') + detail, std::string(8, ' '))) line(piece);
  }
  if (passed) {
    ++passed_;
  } else {
    ++failed_;
    failed_checks_.push_back(what);
  }
  return passed;
}

void Notebook::figure(const Figure& figure, bool show_inline) {
  const DrawnFigure drawn = draw_figure(figure, out_dir_);
  if (drawn.drawn) {
    line(fmt::format("{}figure {}: {}", kIndent, figure.name, figure.title));
    if (show_inline && !options_.quiet) {
      std::vector<std::string> rows;
      std::size_t start = 0;
      while (start < drawn.ascii.size()) {
        std::size_t end = std::min(drawn.ascii.find('\n', start), drawn.ascii.size());
        std::string row = drawn.ascii.substr(start, end - start);
        while (!row.empty() && (row.back() == ' ' || row.back() == '\f')) row.pop_back();
        rows.push_back(row.empty() ? row : kIndent + row);
        start = end + 1;
      }
      // gnuplot pads the page with blank rows; keep only the plot.
      while (!rows.empty() && rows.back().empty()) rows.pop_back();
      auto first = std::find_if(rows.begin(), rows.end(), [](const std::string& r) { return !r.empty(); });
      for (auto it = first; it != rows.end(); ++it) line(*it);
    }
  } else {
    line(fmt::format("{}figure {}: not drawn: {}; data in {}, script in {}", kIndent, figure.name, drawn.why_not,
                     drawn.data_path, drawn.script_path));
  }
}

bool Notebook::gpu() const { return !options_.cpu_only && gpu_available(); }

std::string Notebook::no_gpu_reason() const {
  std::string why = "--cpu-only";
  if (!options_.cpu_only) gpu_available(&why);
  return why;
}

void Notebook::gpu_skip(const std::string& what) { skip(what, "no GPU: " + no_gpu_reason()); }

void Notebook::skip(const std::string& what, const std::string& why) {
  ++skipped_;
  line(fmt::format("{}⊘ skipped: {} ({})", kIndent, what, why));
}

int Notebook::finish() {
  line("");
  line(summary_line(passed_, failed_, skipped_));
  for (const std::string& what : failed_checks_) line(fmt::format("{}✘ {}", kIndent, what));
  std::fflush(stdout);
  return failed_ == 0 ? 0 : 1;
}

}  // namespace common
