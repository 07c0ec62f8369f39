# Finds every dependency the book needs and, if any is missing, stops with one error
# that names the exact Debian packages to install. All of them come from Debian 12.

find_package(CUDAToolkit REQUIRED)

set(_book_missing_packages "")

find_package(Catch2 2 QUIET)
if(NOT Catch2_FOUND)
  list(APPEND _book_missing_packages catch2)
endif()
find_package(Eigen3 3.4 QUIET NO_MODULE)
if(NOT Eigen3_FOUND)
  list(APPEND _book_missing_packages libeigen3-dev)
endif()
find_package(CLI11 2 QUIET CONFIG)
if(NOT CLI11_FOUND)
  list(APPEND _book_missing_packages libcli11-dev)
endif()
find_package(fmt 9 QUIET)
if(NOT fmt_FOUND)
  list(APPEND _book_missing_packages libfmt-dev)
endif()

if(BOOK_DOCS)
  find_program(GNUPLOT_PROGRAM gnuplot)
  if(NOT GNUPLOT_PROGRAM)
    list(APPEND _book_missing_packages gnuplot-nox)
  endif()
  find_program(PANDOC_PROGRAM pandoc)
  if(NOT PANDOC_PROGRAM)
    list(APPEND _book_missing_packages pandoc)
  endif()
endif()

if(_book_missing_packages)
  list(JOIN _book_missing_packages " " _book_missing_line)
  set(_book_hint "")
  if(NOT BOOK_DOCS)
    set(_book_hint "")
  elseif(NOT GNUPLOT_PROGRAM OR NOT PANDOC_PROGRAM)
    set(_book_hint "\n(To build and test without the plots and the book, configure with -DBOOK_DOCS=OFF.)")
  endif()
  message(FATAL_ERROR
    "Missing Debian packages: ${_book_missing_line}\n"
    "Install them with:\n"
    "  sudo apt-get install -y --no-install-recommends ${_book_missing_line}${_book_hint}")
endif()

include(Catch)
