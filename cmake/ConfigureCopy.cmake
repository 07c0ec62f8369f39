# cmake -DSOURCE=dir -DCOPY=dir -DLIBRARY=dir -DARCHITECTURES=80,90 -P ConfigureCopy.cmake
# Copies chapter 08's example project elsewhere (COPY is emptied first) and configures it there
# with the Ninja generator, SELECTIVE_SCAN_DIR=LIBRARY and the architectures (commas for the
# list's semicolons, which would not survive the trip through CTest): a project meant to be
# copied out of the tree must not reach back into it by a relative path.
file(REMOVE_RECURSE "${COPY}")
file(COPY "${SOURCE}/" DESTINATION "${COPY}/source")
string(REPLACE "," ";" architectures "${ARCHITECTURES}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${COPY}/source" -B "${COPY}/build" -G Ninja
                        "-DSELECTIVE_SCAN_DIR=${LIBRARY}" "-DCMAKE_CUDA_ARCHITECTURES=${architectures}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the copy of ${SOURCE} in ${COPY} failed (exit code ${rc})")
endif()
