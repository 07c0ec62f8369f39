# The GPU architectures to compile for, decided before project() (which would otherwise cache
# nvcc's own default). In order:
#   1. an explicit choice: -DCMAKE_CUDA_ARCHITECTURES=86 (or "80;90", "80-virtual"), kept in the
#      cache, so that the scripts' later `cmake --preset ...` leave it as it is;
#   2. the GPUs in this machine, as nvidia-smi reports their compute capability (8.6 -> 86);
#   3. without a GPU, 90 (H100, H200): say so, and how to build for another card.
# Never "native": CMake's own detection stops the configure where no GPU is present.
if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  return()
endif()

set(_book_architectures "")
find_program(BOOK_NVIDIA_SMI nvidia-smi)
if(BOOK_NVIDIA_SMI)
  execute_process(COMMAND ${BOOK_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _book_capabilities RESULT_VARIABLE _book_smi_result ERROR_QUIET TIMEOUT 30)
  if(_book_smi_result EQUAL 0)
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _book_capabilities "${_book_capabilities}")
    foreach(_book_capability IN LISTS _book_capabilities)
      string(REPLACE "." "" _book_capability "${_book_capability}")
      list(APPEND _book_architectures ${_book_capability})
    endforeach()
    list(REMOVE_DUPLICATES _book_architectures)
  endif()
endif()

if(_book_architectures)
  list(JOIN _book_architectures ", " _book_shown)
  message(STATUS "CUDA architectures: ${_book_shown}, the GPUs of this machine "
                 "(choose others with -DCMAKE_CUDA_ARCHITECTURES=...)")
else()
  set(_book_architectures 90)
  message(STATUS "CUDA architectures: 90 (H100, H200), since this machine shows no GPU. For another card, "
                 "configure with its compute capability without the dot: -DCMAKE_CUDA_ARCHITECTURES=86 "
                 "(RTX 30xx), 89 (RTX 40xx), 80 (A100), or several: \"80;86;90\"")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_book_architectures}" CACHE STRING
    "The GPU architectures to compile for (compute capability without the dot; 80-virtual: PTX only)")
