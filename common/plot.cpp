#include "plot.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace common {
namespace {

namespace fs = std::filesystem;

// gnuplot strings are single-quoted; a quote inside is written twice.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// For the shell: single quotes, and each embedded quote closed, escaped and reopened.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void check_figure(const Figure& f) {
  if (f.name.empty() || f.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
    throw std::invalid_argument("figure name must be lower-case letters, digits and '_': '" + f.name + "'");
  if (f.series.empty()) throw std::invalid_argument("figure " + f.name + " has no series");
  for (const Series& s : f.series)
    if (s.x.size() != s.y.size() || s.x.empty())
      throw std::invalid_argument("figure " + f.name + ": series '" + s.title + "' has mismatched or empty x and y");
}

void write_data(const Figure& f, const fs::path& path) {
  std::ofstream out(path);
  out << "# " << f.title << "\n# x: " << f.x_label << "\n# y: " << f.y_label << "\n";
  for (std::size_t i = 0; i < f.series.size(); ++i) {
    if (i > 0) out << "\n\n";  // two blank lines start a new gnuplot "index"
    out << "# series " << i << ": " << f.series[i].title << "\n";
    for (std::size_t k = 0; k < f.series[i].x.size(); ++k) {
      // A value that cannot be plotted (log of 0, overflow) is written as NaN: gnuplot skips it.
      const double y = f.series[i].y[k];
      const bool plottable = std::isfinite(y) && !(f.log_y && y <= 0);
      out << fmt::format("{:.10g} {}\n", f.series[i].x[k], plottable ? fmt::format("{:.10g}", y) : "NaN");
    }
  }
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The plot commands shared by the SVG and the character versions.
std::string plot_commands(const Figure& f, bool for_terminal) {
  std::ostringstream gp;
  // The SVG terminal is enhanced (the log axes' 10^{%L} tics need it), so a text is marked noenhanced
  // unless its figure or series asks for markup. The character terminal would print markup
  // literally: it gets every text plain.
  auto text = [&](const std::string& s, bool markup) {
    return quoted(s) + (markup && !for_terminal ? "" : " noenhanced");
  };
  gp << "set title " << text(f.title, f.markup) << "\n";
  gp << "set xlabel " << text(f.x_label, f.markup) << "\nset ylabel " << text(f.y_label, f.markup) << "\n";
  if (f.log_x) gp << "set logscale x\nset format x '10^{%L}'\n";
  if (f.log_y) gp << "set logscale y\nset format y '10^{%L}'\n";
  if (for_terminal) {
    gp << "set key below\n";  // inside a 78-column plot the key would cover the curves
    if (f.log_x) gp << "set format x '1e%L'\n";
    if (f.log_y) gp << "set format y '1e%L'\n";
  } else {
    gp << "set grid lc rgb '#dddddd'\nset key outside right top box opaque\n";
  }
  for (const std::string& s : f.settings) gp << s << "\n";
  gp << "plot ";
  for (std::size_t i = 0; i < f.series.size(); ++i) {
    gp << (i ? ", \\\n     " : "") << quoted(f.name + ".dat") << " index " << i << " using 1:2 with "
       << (for_terminal ? "lines" : f.series[i].style) << " title " << text(f.series[i].title, f.series[i].markup);
  }
  gp << "\n";
  return gp.str();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

bool gnuplot_available() {
  static const bool available = std::system("gnuplot --version > /dev/null 2>&1") == 0;
  return available;
}

std::string run_gnuplot(const std::string& dir, const std::string& script) {
  const std::string command = "cd " + shell_quoted(dir) + " && gnuplot " + shell_quoted(script) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string messages;
  char buffer[512];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe)) messages += buffer;
  const int status = pipe ? pclose(pipe) : -1;
  return status == 0 ? "" : "gnuplot failed: " + messages;
}

DrawnFigure draw_figure(const Figure& f, const std::string& out_dir) {
  check_figure(f);
  const fs::path dir(out_dir);
  fs::create_directories(dir);
  DrawnFigure result;
  result.data_path = (dir / (f.name + ".dat")).string();
  result.script_path = (dir / (f.name + ".gp")).string();
  write_data(f, result.data_path);

  // One script makes both files, so `gnuplot NAME.gp` alone redraws everything.
  std::ofstream script(result.script_path);
  script << "# " << f.title << " -- run `gnuplot " << f.name << ".gp` in this directory\n"
         << "set terminal svg size " << f.width << "," << f.height
         << " dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'\n"
         << "set output " << quoted(f.name + ".svg") << "\n"
         << plot_commands(f, false) << "unset output\nreset\n"
         << "set terminal dumb size 78,26 mono\n"
         << "set output " << quoted(f.name + ".txt") << "\n"
         << plot_commands(f, true) << "unset output\n";
  script.close();
  if (!script) throw std::runtime_error("cannot write " + result.script_path);

  if (!gnuplot_available()) {
    result.why_not = "gnuplot is not installed (apt-get install gnuplot-nox)";
    return result;
  }
  if (const std::string failure = run_gnuplot(dir.string(), f.name + ".gp"); !failure.empty()) {
    result.why_not = failure;
    return result;
  }
  result.drawn = true;
  result.svg_path = (dir / (f.name + ".svg")).string();
  result.ascii = read_file(dir / (f.name + ".txt"));
  return result;
}

}  // namespace common
