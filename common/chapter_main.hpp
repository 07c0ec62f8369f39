// The main() of every chapter program, so that each one behaves the same way.
#pragma once

#include "notebook.hpp"

#include <functional>

namespace CLI {
class App;
}

namespace common {

// The whole life of a chapter program: parse the options (with the chapter's own added by
// `add_options`), honour --require-gpu (exit 77), run `body` in a Notebook, and turn any
// exception into one line on stderr and exit code 1.
int run_chapter(const ChapterInfo& info, int argc, char** argv,
                const std::function<void(CLI::App&)>& add_options,
                const std::function<void(Notebook&)>& body);

}  // namespace common
