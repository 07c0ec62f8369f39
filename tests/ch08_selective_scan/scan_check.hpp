// What the GPU tests of chapter 08 share: run one kernel version on a problem, forward and
// backward, and judge every output and gradient against the fp64 reference by the chapter's rule
// (verdict.hpp in chapters/08_selective_scan, the program's too): the official test suite's
// tolerances (official_baseline.md), dA with a rounding bound on top.
#pragma once

#include "compare.hpp"
#include "device_problem.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"
#include "tolerances.hpp"
#include "verdict.hpp"

#include <string>
#include <vector>

namespace ch08::testing {

// The official tolerances live with the chapter (tolerances.hpp): its program uses them too.
using ch08::official_tolerances;
using ch08::OfficialTolerances;

struct Outcome {
  bool ok = true;
  std::string report;  // one line per compared tensor that failed
};

// Runs forward and backward of `kernel` on `problem` (drawn at any precision; it is rounded to
// what the GPU sees first) and compares everything. row_padding: the rows along time are that
// much longer in memory (DeviceProblem). keep_checkpoints: the forward keeps h every 8 steps for
// the backward, where version 5 takes the call. dlast_state: the backward also gets a gradient of
// the last state (BackwardParams::dlast_state), drawn from N(0, 1) like dout.
Outcome run_and_compare(const Problem& problem, selective_scan::DataType type, selective_scan::Kernel kernel,
                        bool deterministic = false, unsigned dout_seed = 7, std::int64_t row_padding = 0,
                        bool keep_checkpoints = false, bool dlast_state = false);

std::string describe(const Problem& p, selective_scan::DataType type, selective_scan::Kernel kernel);

// What the backward is handed: the gradient of the outputs, drawn from N(0, 1) with `seed` and
// rounded to `type`, then (with dlast_state) the gradient of the last states, (sequences, dim,
// dstate), drawn from the same stream and rounded to fp32, as the GPU holds it.
struct OutputGradients {
  std::vector<double> dout;
  std::vector<Complex> dlast_state;
};
OutputGradients draw_output_gradients(const Problem& p, selective_scan::DataType type, unsigned seed, bool dlast_state);

// The chapter's rule (verdict.hpp) over a run's outputs and gradients: one line per tensor that
// fails.
Outcome judge(const Problem& p, selective_scan::DataType type, const ForwardResult& got, const ForwardResult& expected,
              const Gradients& got_grad, const Gradients& expected_grad);

}  // namespace ch08::testing
