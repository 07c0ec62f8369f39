#!/usr/bin/env bash
# The unity build as the presets set it up (CMakePresets.json, cmake/UnityBuild.cmake): host files
# compiled in batches, every CUDA file in a job of its own. Reads the build's build.ninja: at least
# one batch of C++ files, and no batch of CUDA files (which CMake 3.31 and later would make).
#   tests/book/unity_batches.sh build/default/build.ninja
set -euo pipefail
ninja_file=$1
# The unity objects build.ninja builds, of one kind (cxx.cxx or cu.cu), one a line.
batches() { grep -oE "^build [^ :]*Unity/unity_[0-9]+_$1\.o" "$ninja_file" | sed 's/^build //' || true; }
host_batches=$(batches 'cxx\.cxx' | grep -c . || true)
cuda_batches=$(batches 'cu\.cu')
[ "$host_batches" -gt 0 ] || { echo "no host files in unity batches: is CMAKE_UNITY_BUILD on?"; exit 1; }
if [ -n "$cuda_batches" ]; then
  echo "CUDA files in unity batches, which cmake/UnityBuild.cmake should keep one to a job:"
  echo "$cuda_batches"
  exit 1
fi
echo "unity_batches: $host_batches batches of host files; every CUDA file compiled alone"
