# cmake -DSOURCE=dir -DCOPY=dir -DARGS=a;b -P ConfigureCopy.cmake
# Copies a CMake project's directory elsewhere (COPY is emptied first) and configures it there
# with ARGS and the Ninja generator: a project meant to be copied out of the tree must not reach
# back into it by a relative path.
file(REMOVE_RECURSE ${COPY})
file(COPY ${SOURCE}/ DESTINATION ${COPY}/source)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${COPY}/source -B ${COPY}/build -G Ninja ${ARGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the copy of ${SOURCE} in ${COPY} failed (exit code ${rc})")
endif()
