// Small helpers shared by chapter 01's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"

#include <catch2/catch.hpp>

#include <string>
