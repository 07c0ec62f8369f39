// Benchmark results as CSV. Every row carries the device's name and the date, because a
// timing means nothing without the machine it was taken on.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace common {

class ResultsCsv {
 public:
  // Creates (truncates) `path` and writes the header: device, date, then `columns`.
  ResultsCsv(const std::string& path, std::string device, std::string date, std::vector<std::string> columns);
  void row(const std::vector<std::string>& cells);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string device_;
  std::string date_;
  std::size_t column_count_;
  std::ofstream out_;
};

}  // namespace common
