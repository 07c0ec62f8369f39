# The presets build the host files of each target several to a compile job (CMAKE_UNITY_BUILD, in
# batches of 8): the headers every file includes (CLI11, fmt, Eigen, the CUDA runtime's) are then
# parsed and their inline functions compiled once a batch, not once a file. The first
# scripts/book.sh on 2 cores took 461 s with it and 696 s without (appendix A, "The first build
# in unity batches"). This file, which the presets load at the project() call
# (CMAKE_PROJECT_TOP_LEVEL_INCLUDES), keeps the CUDA files one to a job: CMake batches them too
# from version 3.31, and they are the build's longest jobs (chapter 08's kernels, up to two minutes
# a file), which only run side by side as files of their own.
function(book_cuda_files_alone directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(sources ${target} SOURCES)
    get_target_property(target_directory ${target} SOURCE_DIR)
    foreach(source IN LISTS sources)
      if(source MATCHES "\\.cu$")
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${target_directory}")
        set_source_files_properties("${source}" TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
    endforeach()
  endforeach()
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    book_cuda_files_alone("${subdirectory}")
  endforeach()
endfunction()

# Once every directory has added its targets: at the end of the top-level CMakeLists.txt.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL book_cuda_files_alone "${CMAKE_SOURCE_DIR}")
