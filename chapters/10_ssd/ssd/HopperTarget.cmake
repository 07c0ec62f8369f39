# book_hopper_arch_specific(<target>): compile the target's CUDA code for sm_90a where the build
# asks for sm_90. Hopper's warpgroup products (wgmma) and register reallocation (setmaxnreg) exist
# only in that target, whose machine code runs on compute capability 9.0 alone; PTX for compute_90
# is still embedded where the build asked for it (a plain "90"), for the GPUs after Hopper.
# Included by the library for version 4's file (ssd/CMakeLists.txt) and by its GPU tests, whose probe
# uses wgmma too.
function(book_hopper_arch_specific target)
  set(architectures ${CMAKE_CUDA_ARCHITECTURES})
  list(TRANSFORM architectures REPLACE "^90$" "90a-real;90-virtual")
  list(TRANSFORM architectures REPLACE "^90-real$" "90a-real")
  set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES ${architectures})
  # The host code may ask whether the target holds sm_90a code: BOOK_SM90A_CODE.
  if(NOT architectures STREQUAL CMAKE_CUDA_ARCHITECTURES)
    target_compile_definitions(${target} PRIVATE BOOK_SM90A_CODE)
  endif()
endfunction()
