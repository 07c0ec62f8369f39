#include "chapter_main.hpp"

#include "gpu.hpp"
#include "options.hpp"

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace common {

int run_chapter(const ChapterInfo& info, int argc, char** argv, const std::function<void(CLI::App&)>& add_options,
                const std::function<void(Notebook&)>& body) {
  CLI::App app(info.title, info.program);
  CommonOptions options;
  add_common_options(app, options, info.kernel_count);
  if (add_options) add_options(app);
  if (const auto rc = parse_command_line(app, argc, argv)) return *rc;
  try {
    prepare_output_directory(app, options, info.program);
  } catch (const OptionError& e) {
    print_option_error(app, e.what());
    return 2;
  }

  std::string why;
  if (options.require_gpu && !gpu_available(&why)) {
    std::printf("SKIPPED: %s needs a usable GPU (--require-gpu): %s\n", info.program.c_str(), why.c_str());
    return 77;
  }
  std::string command_line = info.program;
  for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];
  try {
    Notebook notebook(info, options, command_line);
    if (!notebook.gpu()) {
      std::string given;
      for (const CLI::Option* o : app.get_options([](const CLI::Option* o) { return o->get_group() == kGpuOptions; }))
        if (o->count() > 0) given += (given.empty() ? "" : ", ") + o->get_name();
      if (!given.empty()) notebook.header_line("unused", given + ": they steer GPU sections only, and none runs here");
    }
    body(notebook);
    return notebook.finish();
  } catch (const OptionError& e) {  // sizes whose product does not fit (require_host_memory, ...)
    std::fflush(stdout);
    print_option_error(app, e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: out of host memory (std::bad_alloc): try smaller sizes (see --help)\n",
                 info.program.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", info.program.c_str(), e.what());
    return 1;
  }
}

}  // namespace common
