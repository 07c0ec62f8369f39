// The options every chapter program shares, parsed with CLI11.
//
// A bad value gets one line on stderr that names the option and what it accepts, and exit
// code 2. CLI11's own conversions are not enough for that: "--seed -3" silently wraps to
// 2^64 − 3 and "--seed x" says only "Could not convert", so every numeric option here goes
// through a validator that reads the text strictly and states the accepted range.
#pragma once

#include "common_options.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace common {

// Validators that accept only what they say: a whole number in [lo, hi], a real number in
// [lo, hi]. Use them with CLI::Option::check().
CLI::Validator integer_in(long long lo, long long hi);
CLI::Validator unsigned_integer();
CLI::Validator real_in(double lo, double hi);

// Adds --seed, --out, --bench, --quiet, --cpu-only, --require-gpu; and --kernel when the
// chapter has `kernel_count` numbered kernel versions (> 0).
void add_common_options(CLI::App& app, CommonOptions& options, int kernel_count = 0);

// Parses the command line. Returns an exit code when the program should stop at once:
// 0 after --help, 2 after a bad option (with its one-line message on stderr). An option
// whose value is missing is named as such, also when the next word is another option
// ("--kernel --quiet"), which CLI11 would otherwise take as the value.
std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv);

// Prints "<program>: <message> (see --help)" on one line of stderr: how every bad option is told.
void print_option_error(const CLI::App& app, const std::string& message);

// Settles the output directory before any work: --out DIR, or out/<program> when --out was not
// given. Creates it and writes a file in it; throws OptionError naming --out when that fails
// or when --out is empty.
void prepare_output_directory(const CLI::App& app, CommonOptions& options, const std::string& program);

}  // namespace common
