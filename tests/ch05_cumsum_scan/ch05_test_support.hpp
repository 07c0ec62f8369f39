// Small helpers shared by chapter 05's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"

#include <catch2/catch.hpp>

#include <string>

// Every scan of whole-number inputs must be exact (reference.hpp says why).
inline constexpr common::Tolerance kExact{0.0, 0.0};
