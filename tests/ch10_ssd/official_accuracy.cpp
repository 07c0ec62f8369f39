// ch10_official_accuracy CASE_DIR...: our library and the official Triton kernels on identical
// inputs, each against the fp64 forms of this chapter (the recurrence and its adjoint).
//
// scripts/ssd-official-accuracy writes each CASE_DIR on the GPU machine: meta.txt (the sizes and
// options), the inputs as the official kernels took them and the official outputs and gradients,
// every tensor as little-endian fp64 (NAME.f64; seq_idx as NAME.i64), in this chapter's layouts.
// This program runs our forward and backward (Kernel::automatic: version 3 where it takes the call) on
// the same inputs, computes the fp64 reference, and prints one CSV row a tensor: the largest
// |reference|, our largest error and the official kernels', and the two root-mean-square errors. Without a GPU it prints the official side alone.
#include "compare.hpp"
#include "device_ssd.hpp"
#include "dtype_named.hpp"
#include "gpu.hpp"
#include "ssd_backward.hpp"
#include "ssd_problem.hpp"
#include "ssd_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

template <class T>
std::vector<T> read_values(const std::string& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<T> v(count);
  in.read(reinterpret_cast<char*>(v.data()), std::streamsize(count * sizeof(T)));
  if (std::size_t(in.gcount()) != count * sizeof(T) || in.peek() != std::char_traits<char>::eof())
    throw std::runtime_error(path + " does not hold " + std::to_string(count) + " values");
  return v;
}

struct Case {
  std::string dir, dtype;
  ch10::Problem p;
  std::int64_t chunk = 256;
  std::map<std::string, std::string> meta;
  bool has(const std::string& key) const { return meta.at(key) == "1"; }
  std::vector<double> f64(const std::string& name, std::size_t count) const {
    return read_values<double>(dir + "/" + name + ".f64", count);
  }
};

Case read_case(const std::string& dir) {
  Case c;
  c.dir = dir;
  std::ifstream in(dir + "/meta.txt");
  if (!in) throw std::runtime_error("cannot open " + dir + "/meta.txt");
  for (std::string key, value; in >> key >> value;) c.meta[key] = value;
  ch10::Shape& s = c.p.shape;
  s.batch = std::stoll(c.meta.at("batch")), s.seqlen = std::stoll(c.meta.at("seqlen"));
  s.heads = std::stoi(c.meta.at("heads")), s.head_dim = std::stoi(c.meta.at("head_dim"));
  s.groups = std::stoi(c.meta.at("groups")), s.dstate = std::stoi(c.meta.at("dstate"));
  c.dtype = c.meta.at("dtype");
  c.chunk = std::stoll(c.meta.at("chunk"));
  c.p.dt_softplus = c.has("dt_softplus");
  c.p.dt_limit = {std::stod(c.meta.at("dt_min")), std::stod(c.meta.at("dt_max"))};
  const ch10::Index at{s};
  c.p.x = c.f64("x", at.x_size()), c.p.dt = c.f64("dt", at.dt_size()), c.p.A = c.f64("A", std::size_t(s.heads));
  c.p.B = c.f64("B", at.bc_size()), c.p.C = c.f64("C", at.bc_size());
  const std::string D = c.meta.at("D");  // none, head or channel
  if (D != "none") c.p.D = c.f64("D", std::size_t(s.heads) * (D == "channel" ? std::size_t(s.head_dim) : 1));
  if (c.has("z")) c.p.z = c.f64("z", at.x_size());
  if (c.has("dt_bias")) c.p.dt_bias = c.f64("dt_bias", std::size_t(s.heads));
  if (c.has("initial_states")) c.p.initial_states = c.f64("initial_states", at.state_size());
  if (c.has("seq_idx")) c.p.seq_idx = read_values<std::int64_t>(dir + "/seq_idx.i64", std::size_t(s.batch * s.seqlen));
  return c;
}

// The largest |got − ref|; a NaN or Inf anywhere is the worst error there is.
double largest_error(const std::vector<double>& got, const std::vector<double>& ref) {
  const common::Comparison c = common::compare(got, ref, {});
  return c.non_finite ? INFINITY : c.max_abs_error;
}

// The root mean square of got − ref: an error that one element's rounding cannot set alone, as it
// sets the largest (a 16-bit output's largest error is often the rounding of its largest value,
// the same on both sides); infinite where anything is NaN or Inf.
double rms_error(const std::vector<double>& got, const std::vector<double>& ref) {
  double sum = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) sum += (got[i] - ref[i]) * (got[i] - ref[i]);
  return std::isfinite(sum) ? std::sqrt(sum / double(std::max<std::size_t>(1, ref.size()))) : INFINITY;
}

double largest_magnitude(const std::vector<double>& v) {
  double m = 0;
  for (const double x : v) m = std::max(m, std::abs(x));
  return m;
}

// One row: case, dtype, tensor, max |ref|, the largest errors of ours and the official, their root mean
// squares ("-" where a side has no value).
void row(const Case& c, const std::string& tensor, const std::vector<double>& ref, const std::vector<double>* ours,
         const std::vector<double>& official) {
  const auto number = [](double v) {
    std::ostringstream out;
    out << std::setprecision(3) << std::scientific << v;
    return out.str();
  };
  const auto cell = [&](const std::vector<double>* got, auto error) {
    return got ? number(error(*got, ref)) : std::string("-");
  };
  std::cout << c.meta.at("name") << ',' << c.dtype << ',' << tensor << ',' << number(largest_magnitude(ref)) << ','
            << cell(ours, largest_error) << ',' << cell(&official, largest_error) << ',' << cell(ours, rms_error) << ','
            << cell(&official, rms_error) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const bool gpu = common::gpu_available();
    std::cout << "case,dtype,tensor,max_abs_ref,ours_max_abs_err,official_max_abs_err,ours_rms_err,official_rms_err\n";
    for (int i = 1; i < argc; ++i) {
      const Case c = read_case(argv[i]);
      const ch10::Problem& p = c.p;
      const ch10::Index at{p.shape};
      const ssd::DataType type = ch10_test::dtype_named(c.dtype);
      const std::vector<double> dy = c.f64("dy", at.x_size());
      const ch10::Forward ref = ch10::ssd_recurrence(p);
      const ch10::Gradients ref_grad = ch10::ssd_backward(p, dy);
      ch10::Forward ours;
      ch10::Gradients ours_grad;
      if (gpu) ours = ch10::gpu_forward(p, type, ssd::Kernel::automatic, c.chunk);
      if (gpu) ours_grad = ch10::gpu_backward(p, type, dy, ssd::Kernel::automatic);
      row(c, "y", ref.y, gpu ? &ours.y : nullptr, c.f64("official_y", at.x_size()));
      row(c, "final_states", ref.final_states, gpu ? &ours.final_states : nullptr,
          c.f64("official_final_states", at.state_size()));
      const auto gradient = [&](const char* name, const std::vector<double>& r, const std::vector<double>& o) {
        if (!r.empty()) row(c, name, r, gpu ? &o : nullptr, c.f64(std::string("official_") + name, r.size()));
      };
      gradient("dx", ref_grad.dx, ours_grad.dx);
      gradient("ddt", ref_grad.ddt, ours_grad.ddt);
      gradient("dA", ref_grad.dA, ours_grad.dA);
      gradient("dB", ref_grad.dB, ours_grad.dB);
      gradient("dC", ref_grad.dC, ours_grad.dC);
      gradient("dD", ref_grad.dD, ours_grad.dD);
      gradient("dz", ref_grad.dz, ours_grad.dz);
      gradient("ddt_bias", ref_grad.ddt_bias, ours_grad.ddt_bias);
      gradient("dinitial_states", ref_grad.dinitial_states, ours_grad.dinitial_states);
    }
    if (!gpu) std::cerr << "ch10_official_accuracy: no usable GPU: our side was not run\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ch10_official_accuracy: " << e.what() << '\n';
    return 1;
  }
}
