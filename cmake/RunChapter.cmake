# cmake -DPROGRAM=... -DOUT=dir -P RunChapter.cmake
# Runs a chapter program with --out OUT, saving what it prints to OUT/output.txt, and fails
# when the program does (a failed check or an error).
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PROGRAM} --out ${OUT}
  OUTPUT_FILE ${OUT}/output.txt ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (exit code ${rc}); see ${OUT}/output.txt\n${errors}")
endif()
