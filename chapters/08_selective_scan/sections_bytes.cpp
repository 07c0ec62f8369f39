// Chapter 08's section on the byte model: what fused and unfused kernels move, what keeping
// states costs.
#include "sections.hpp"

#include "byte_model.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ch08 {
namespace {

using common::Figure;
using common::Notebook;
using common::Series;

}  // namespace

void section_bytes(Notebook& nb) {
  nb.section("Bytes: fused against unfused, recomputation against stored states");
  nb.text(
      "The byte model (byte_model.hpp) counts every input read once and every output written once:\n"
      "the floor a memory-bound kernel is held to. An unfused forward writes Ā and B̄u for every\n"
      "(b, d, n, t) and reads them back; the fused kernel keeps them in registers. The backward needs\n"
      "h_t: storing every state costs batch·dim·seqlen·dstate floats, one state per chunk of 2048 steps\n"
      "costs 2048 times less, and the backward recomputes the rest.");
  std::vector<std::vector<std::string>> rows;
  for (const Config& c : bench_configs()) {
    const ch08::ByteShape s = byte_shape(c);
    rows.push_back({c.label, megabytes(ch08::forward_bytes(s)), megabytes(ch08::unfused_forward_bytes(s)),
                    fmt::format("{:.1f}×", double(ch08::unfused_forward_bytes(s)) / double(ch08::forward_bytes(s))),
                    megabytes(ch08::forward_backward_bytes(s)), megabytes(ch08::chunk_state_bytes(s)),
                    megabytes(ch08::all_states_bytes(s))});
  }
  nb.table({"configuration", "fwd MB", "unfused fwd MB", "unfused ÷ fused", "fwd+bwd MB", "chunk states MB",
            "every state MB"},
           rows);

  nb.text(
      "Section 8 divides each version's time by this floor, at the copy bandwidth it measures in the\n"
      "same run, and the official kernel's too where official-bench timed it in the same call (--official),\n"
      "counted as the official kernel stores its chunk states ((decay, state) pairs) and dB, dC (input type).");

  Figure f{"bytes_moved",
           "Bytes moved and kept, batch 8, dim 1536, dstate 16, fp32",
           "seqlen",
           "bytes",
           true,
           true,
           {},
           {"set key inside top left", "set yrange [1e5:1e15]"}};
  Series fused{"forward, fused", {}, {}, "linespoints lw 2 pt 7"},
      unfused{"forward, unfused (Ā, B̄u in memory)", {}, {}, "linespoints lw 2 pt 5"},
      both{"forward + backward, fused", {}, {}, "linespoints lw 2 pt 9"},
      chunks{"kept: one state per chunk", {}, {}, "lines lw 2 dt 2"},
      every{"kept: every state", {}, {}, "lines lw 2 dt 3"};
  for (int e = 7; e <= 16; ++e) {
    const ch08::ByteShape s = byte_shape(make_config(DataType::float32, 8, 1536, std::int64_t(1) << e, 16));
    const double L = double(std::int64_t(1) << e);
    fused.x.push_back(L), fused.y.push_back(double(ch08::forward_bytes(s)));
    unfused.x.push_back(L), unfused.y.push_back(double(ch08::unfused_forward_bytes(s)));
    both.x.push_back(L), both.y.push_back(double(ch08::forward_backward_bytes(s)));
    chunks.x.push_back(L), chunks.y.push_back(double(ch08::chunk_state_bytes(s)));
    every.x.push_back(L), every.y.push_back(double(ch08::all_states_bytes(s)));
  }
  f.series = {unfused, every, both, fused, chunks};
  nb.figure(f);
}

}  // namespace ch08
