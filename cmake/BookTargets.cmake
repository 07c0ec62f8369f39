# Helpers that give every chapter the same shape: warnings, a library the tests link,
# an exercise switch, a program, and tests labelled cpu / gpu / exercise.

# Warnings for our own code. -Wpedantic is never forwarded to nvcc: it trips on nvcc's
# generated line markers.
function(book_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
endfunction()

# book_chapter_library(<target> SOURCES <files...> EXERCISES <solution=stub>...)
# Each EXERCISES entry pairs a solution file with its stub under exercises/. The
# `exercises` preset (BOOK_EXERCISES=ON) compiles the stub instead of the solution, so
# everything that links the library -- the program and the tests -- sees the stub.
function(book_chapter_library target)
  cmake_parse_arguments(ARG "" "" "SOURCES;EXERCISES" ${ARGN})
  set(sources ${ARG_SOURCES})
  foreach(pair IN LISTS ARG_EXERCISES)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 solution)
    list(GET pair 1 stub)
    if(BOOK_EXERCISES)
      list(APPEND sources ${stub})
    else()
      list(APPEND sources ${solution})
    endif()
  endforeach()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC book_common)
  set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  book_warnings(${target})
endfunction()

# book_chapter_program(<name> SOURCES <files...> LIBRARY <lib>)
# Registers the program's own end-to-end tests:
#   <name>.cpu_parts    everything that runs without a GPU (GPU sections forced off)
#   <name>.full         every section; needs a GPU (exit 77 -> skipped without one)
#   <name>.bad_option   a bad option value -> one-line error, exit code 2
#   <name>.bad_out      an --out directory that cannot be created -> the same, before any work
function(book_chapter_program name)
  cmake_parse_arguments(ARG "" "LIBRARY" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARY})
  book_warnings(${name})
  set(out ${CMAKE_BINARY_DIR}/test-out/${name})
  add_test(NAME ${name}.cpu_parts COMMAND ${name} --cpu-only --quiet --out ${out}/cpu_parts)
  set_tests_properties(${name}.cpu_parts PROPERTIES LABELS "cpu;chapter")
  add_test(NAME ${name}.full COMMAND ${name} --require-gpu --quiet --out ${out}/full)
  set_tests_properties(${name}.full PROPERTIES LABELS "gpu;chapter" SKIP_RETURN_CODE 77 TIMEOUT 900)
  add_test(NAME ${name}.bad_option
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${name}> "-DARGS=--seed;not-a-number"
            -DEXPECT_RC=2 -DEXPECT_STDERR=--seed
            -P ${CMAKE_SOURCE_DIR}/cmake/ExpectExit.cmake)
  set_tests_properties(${name}.bad_option PROPERTIES LABELS "cpu;chapter")
  add_test(NAME ${name}.bad_out
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${name}> "-DARGS=--out;/proc/no_directory_here"
            -DEXPECT_RC=2 "-DEXPECT_STDERR=^${name}: --out: cannot create" -DEXPECT_NO_STDOUT=ON
            -P ${CMAKE_SOURCE_DIR}/cmake/ExpectExit.cmake)
  set_tests_properties(${name}.bad_out PROPERTIES LABELS "cpu;chapter")
  set_property(GLOBAL APPEND PROPERTY BOOK_CHAPTER_PROGRAMS ${name})
endfunction()

# book_program_refuses_on_gpu(<program> <test> STDERR <regex> ARGS <args...>)
# <program>.<test>: with a GPU, ARGS (sizes each in range whose product does not fit) are
# refused before any work: one line matching STDERR, exit code 2, nothing on stdout (not even
# the program's header). Without a GPU nothing holds
# those sizes, and --require-gpu exits 77: skipped.
function(book_program_refuses_on_gpu program test)
  cmake_parse_arguments(ARG "" "STDERR" "ARGS" ${ARGN})
  set(args --require-gpu ${ARG_ARGS} --out ${CMAKE_BINARY_DIR}/test-out/${program}/${test})
  add_test(NAME ${program}.${test}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> "-DARGS=${args}"
            -DEXPECT_RC=2 "-DEXPECT_STDERR=${ARG_STDERR}" -DEXPECT_NO_STDOUT=ON
            -P ${CMAKE_SOURCE_DIR}/cmake/ExpectExit.cmake)
  set_tests_properties(${program}.${test} PROPERTIES LABELS "gpu;chapter"
    SKIP_REGULAR_EXPRESSION "expected exit code 2, got 77")
endfunction()

# book_test(<target> PREFIX <name prefix> SOURCES <files...> LIBRARIES <libs...>
#           [KINDS <cpu|gpu|exercise_cpu|exercise_gpu>...])
# One Catch2 executable; every test case becomes its own CTest test, labelled by tag:
#   [gpu]       label gpu; exit 77 (no usable GPU, see tests/gpu_test.hpp) -> skipped
#   [exercise]  label exercise, plus cpu or gpu
#   otherwise   label cpu
# KINDS lists the kinds the executable has (default: all four; discovering a kind that has
# no test case only prints a warning).
function(book_test target)
  cmake_parse_arguments(ARG "" "PREFIX" "SOURCES;LIBRARIES;KINDS" ${ARGN})
  if(NOT ARG_KINDS)
    set(ARG_KINDS cpu gpu exercise_cpu exercise_gpu)
  endif()
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} book_test_support)
  book_warnings(${target})
  set(dir ${CMAKE_BINARY_DIR}/test-out/${target})
  file(MAKE_DIRECTORY ${dir})
  # Labels go on through a script of our own: Catch2 v2's discovery passes properties
  # through a list, which splits a label list such as "exercise;gpu" apart.
  set(labels_script ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${labels_script} "")
  foreach(kind IN LISTS ARG_KINDS)
    if(kind STREQUAL "cpu")
      set(spec "~[gpu]~[exercise]")
    elseif(kind STREQUAL "gpu")
      set(spec "[gpu]~[exercise]")
    elseif(kind STREQUAL "exercise_cpu")
      set(spec "[exercise]~[gpu]")
    else()
      set(spec "[exercise][gpu]")
    endif()
    string(REPLACE "_" ";" labels ${kind})
    # A GPU test that waits on a flag nobody publishes would spin forever: stop it instead.
    set(limits "")
    if(kind MATCHES "gpu")
      set(limits " TIMEOUT 900")
    endif()
    catch_discover_tests(${target} TEST_SPEC "${spec}" TEST_PREFIX "${ARG_PREFIX}" WORKING_DIRECTORY ${dir}
      TEST_LIST ${target}_${kind}_tests PROPERTIES SKIP_RETURN_CODE 77)
    file(APPEND ${labels_script}
      "if(${target}_${kind}_tests)\n"
      "  set_tests_properties(\${${target}_${kind}_tests} PROPERTIES LABELS \"${labels}\"${limits})\n"
      "endif()\n")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_script})
  set_property(GLOBAL APPEND PROPERTY BOOK_TEST_TARGETS ${target})
  # exercise_tests_<chapter>: a chapter's test programs that hold exercise tests, which
  # scripts/exercise builds (and nothing else) before it runs an exercise's tests.
  string(REGEX MATCH "^ch[0-9][0-9]_[a-z0-9_]+" chapter "${ARG_PREFIX}")
  if(chapter AND ARG_KINDS MATCHES "exercise")
    if(NOT TARGET exercise_tests_${chapter})
      add_custom_target(exercise_tests_${chapter})
    endif()
    add_dependencies(exercise_tests_${chapter} ${target})
  endif()
endfunction()
