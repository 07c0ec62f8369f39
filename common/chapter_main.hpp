// The main() of every chapter program, so that each one behaves the same way.
#pragma once

#include "notebook.hpp"

#include <functional>

namespace CLI {
class App;
}

namespace common {

// The whole life of a chapter program: parse the options (with the chapter's own added by
// `add_options`), settle the output directory, honour --require-gpu (exit 77), run `body` in a
// Notebook, and turn any exception into one line on stderr: exit code 2 for an OptionError
// (a size that does not fit, from require_host_memory or require_device_memory: call them
// before allocating), 1 for anything else.
int run_chapter(const ChapterInfo& info, int argc, char** argv, const std::function<void(CLI::App&)>& add_options,
                const std::function<void(Notebook&)>& body);

}  // namespace common
