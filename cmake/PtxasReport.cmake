# The chapters with hand-tuned kernels compile them with -Xptxas -v: ptxas then reports every
# kernel's registers, spills and stack frame, about a thousand lines for the whole book. They
# go to build/<preset>/ptxas.log instead of the build output (cmake/ptxas-to-log, which wraps
# nvcc and ccache); compiler warnings and errors still show where they always did.
set(BOOK_PTXAS_LOG ${CMAKE_BINARY_DIR}/ptxas.log)
set(CMAKE_CUDA_COMPILER_LAUNCHER ${CMAKE_SOURCE_DIR}/cmake/ptxas-to-log ${BOOK_PTXAS_LOG} ${CMAKE_CUDA_COMPILER_LAUNCHER})
