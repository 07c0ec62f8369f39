#include "official_times.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ch08 {

std::string official_spec(const std::string& dtype, std::int64_t batch, std::int64_t dim, std::int64_t seqlen,
                          int dstate, int groups) {
  return fmt::format("{}:{},{},{},{},{}", dtype, batch, dim, seqlen, dstate, groups);
}

void for_each_csv_row(const std::string& path, const std::string& what,
                      const std::function<void(const std::vector<std::string>& cells)>& row) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line.rfind("device,", 0) == 0) continue;
    std::vector<std::string> cells;
    std::stringstream cells_of_line(line);
    for (std::string cell; std::getline(cells_of_line, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();  // getline drops a last empty cell
    try {
      row(cells);
    } catch (const std::exception&) {
      // Shown as text: a file that is not a CSV at all would otherwise put its bytes on the terminal.
      std::string shown;
      for (const char c : line.substr(0, 60)) shown += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
      throw std::runtime_error(
          fmt::format("{}:{}: not {}: {}{}", path, number, what, shown, line.size() > 60 ? "..." : ""));
    }
  }
}

std::map<std::string, OfficialTime> read_official_csv(const std::string& path) {
  std::map<std::string, OfficialTime> times;
  for_each_csv_row(path, "an official-bench row (device,dtype,batch,dim,seqlen,dstate,groups,fwd_ms,fwd_bwd_ms)",
                   [&](const std::vector<std::string>& cells) {
                     if (cells.size() != 9) throw std::invalid_argument("9 cells");
                     const std::string spec =
                         official_spec(cells[1], std::stoll(cells[2]), std::stoll(cells[3]), std::stoll(cells[4]),
                                       std::stoi(cells[5]), std::stoi(cells[6]));
                     times[spec] = {std::stod(cells[7]), std::stod(cells[8]), cells[0]};
                   });
  return times;
}

}  // namespace ch08
