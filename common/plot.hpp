// Figures through gnuplot: every figure is a data file plus a gnuplot script, both kept.
//
// The program writes NAME.dat and NAME.gp into its output directory and, when gnuplot is
// installed, runs the script to make NAME.svg (for the book) and NAME.txt (a plot in
// characters, for the program's own output). Keeping the script means a figure can be
// redrawn later from its data alone -- `gnuplot NAME.gp` in that directory -- which is how
// the figures of a run recorded on the GPU machine are drawn back on the build machine.
// Without gnuplot the program still writes both files and says which figure it could not
// draw.
#pragma once

#include <string>
#include <vector>

namespace common {

struct Series {
  std::string title;
  std::vector<double> x;
  std::vector<double> y;
  std::string style = "lines lw 2";  // a gnuplot "with" clause
  // The title in gnuplot's enhanced-text markup (x_t, e^{-x}); off, it is shown as written, so a
  // kernel's name such as scan_one_thread keeps its underscores.
  bool markup = false;
};

struct Figure {
  std::string name;  // file stem, letters, digits and '_' only
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  std::vector<Series> series;
  std::vector<std::string> settings;  // extra gnuplot commands, e.g. "set yrange [-1:1]"
  // The title and axis labels in gnuplot's enhanced-text markup (h_{k-1}, A^k); off, shown as written.
  // Each series says so for its own title.
  bool markup = false;
  int width = 760;  // of the SVG, in pixels; the book scales it to its column
  int height = 460;
};

struct DrawnFigure {
  std::string svg_path;     // NAME.svg, when drawn
  std::string script_path;  // NAME.gp, always written
  std::string data_path;    // NAME.dat, always written
  bool drawn = false;
  std::string why_not;  // when not drawn
  std::string ascii;    // the character plot, when drawn
};

// Writes the data and script into `out_dir` (created if missing) and draws the figure.
DrawnFigure draw_figure(const Figure& figure, const std::string& out_dir);

// Whether a working gnuplot is on the PATH (asked once).
bool gnuplot_available();

// Runs `gnuplot SCRIPT` in `dir` (for a script written by hand, like a heat map's); returns ""
// when it succeeded, else "gnuplot failed: " and what gnuplot printed.
std::string run_gnuplot(const std::string& dir, const std::string& script);

}  // namespace common
