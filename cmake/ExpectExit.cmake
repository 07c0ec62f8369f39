# cmake -DPROGRAM=... -DARGS=a;b -DEXPECT_RC=N -DEXPECT_STDERR=regex [-DEXPECT_NO_STDOUT=ON]
#       -P ExpectExit.cmake
# Fails unless PROGRAM exits with EXPECT_RC and prints exactly one line on stderr that
# matches the regex (the project's rule for bad input: one clear line, a non-zero exit), and,
# with EXPECT_NO_STDOUT, nothing on stdout (the error came before any work).
execute_process(COMMAND ${PROGRAM} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "expected exit code ${EXPECT_RC}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
string(STRIP "${err}" line)
if(line MATCHES "\n" OR NOT line MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "expected one line on stderr matching '${EXPECT_STDERR}', got:\n${err}")
endif()
if(EXPECT_NO_STDOUT AND NOT out STREQUAL "")
  message(FATAL_ERROR "expected nothing on stdout, got:\n${out}")
endif()
message(STATUS "exit code ${rc}; stderr: ${line}")
