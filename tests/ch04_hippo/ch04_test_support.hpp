// Small helpers shared by chapter 04's tests.
#pragma once

#include "bound_check.hpp"
#include "check_close.hpp"
#include "compare.hpp"
#include "hippo.hpp"

#include <catch2/catch.hpp>

#include <vector>

inline std::vector<double> as_vector(const hippo::Vector& v) { return {v.data(), v.data() + v.size()}; }
inline std::vector<double> as_vector(const hippo::Matrix& m) { return {m.data(), m.data() + m.size()}; }
