#include "results_csv.hpp"

#include <filesystem>
#include <stdexcept>

namespace common {
namespace {

// RFC 4180: quote a cell that holds a comma, a quote or a line break; double the quotes.
std::string cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

ResultsCsv::ResultsCsv(const std::string& path, std::string device, std::string date, std::vector<std::string> columns)
    : path_(path), device_(std::move(device)), date_(std::move(date)), column_count_(columns.size()) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  out_.open(path);
  if (!out_) throw std::runtime_error("cannot write " + path);
  out_ << "device,date";
  for (const auto& c : columns) out_ << ',' << cell(c);
  out_ << '\n';
}

void ResultsCsv::row(const std::vector<std::string>& cells) {
  if (cells.size() != column_count_)
    throw std::invalid_argument(path_ + ": a row of " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(column_count_) + " columns");
  out_ << cell(device_) << ',' << cell(date_);
  for (const auto& c : cells) out_ << ',' << cell(c);
  out_ << '\n';
  out_.flush();
}

}  // namespace common
