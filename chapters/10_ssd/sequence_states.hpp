// sequence_states.hpp: packed sequences' own final states in fp64, the definition the library's
// sequence_final_states is checked against. The official test of chunk_state_varlen
// (tests/ops/triton/test_ssd.py, state-spaces/mamba) checks it the same way: each sequence run on
// its own.
#pragma once

#include "ssd_problem.hpp"

#include <cstdint>
#include <vector>

namespace ch10 {

// Where each packed sequence of a one-row problem starts, then seqlen: the official cu_seqlens.
// Throws std::invalid_argument unless batch is 1 and seq_idx numbers the sequences 0, 1, 2, ...
// along the row, none skipped.
std::vector<std::int64_t> sequence_starts(const Problem& p);

// Each sequence cut out as a problem of its own (the initial states go with sequence 0) and run
// through ssd_recurrence: its final states, (sequences, heads, head_dim, dstate).
std::vector<double> sequence_final_states(const Problem& p);

}  // namespace ch10
