// What a Notebook prints, captured for a test: stdout goes to a temporary file while `body`
// runs, and comes back as text with the exit code the summary gives.
#pragma once

#include "notebook.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdio>
#include <string>

namespace book_test {

struct Printed {
  std::string text;
  int exit_code = 0;
};

template <class Body>
Printed run_notebook(Body body) {
  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture);
  const int saved = dup(fileno(stdout));
  dup2(fileno(capture), fileno(stdout));
  common::CommonOptions options;
  options.cpu_only = true;
  common::Notebook nb({"test", "Test", 0}, options, "test");
  body(nb);
  Printed printed;
  printed.exit_code = nb.finish();
  std::fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);
  std::rewind(capture);
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, capture)) > 0) printed.text.append(buffer, n);
  std::fclose(capture);
  return printed;
}

}  // namespace book_test
