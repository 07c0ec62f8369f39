# Sourced by the scripts that build the book: the Debian packages it needs, and a function
# that installs the missing ones (as root) or prints the exact line to run (otherwise).

# Build and test: nvcc comes with the CUDA toolkit; these are the rest. The presets compile the
# host files with clang and link with lld (a first build on 2 cores: 617 s with g++ and GNU ld,
# 551 with clang, 498 with clang and lld, appendix A, 2026-12-01); g++ is nvcc's host compiler for
# the CUDA files.
# python3-numpy: the test of scripts/ssd-rounding-model (tests/book/ssd_rounding_model.py).
BOOK_BUILD_PACKAGES=(cmake ninja-build g++ clang lld catch2 libeigen3-dev libcli11-dev libfmt-dev gnuplot-nox pandoc python3 python3-numpy ccache clang-format)
# Fonts for the figures and the book's math.
BOOK_FONT_PACKAGES=(fonts-dejavu-core fonts-dejavu-extra)
# The sanitize preset's sanitizers' runtime (CI's sanitizer stage); its compiler is clang, above.
BOOK_SANITIZE_PACKAGES=(libclang-rt-dev)

# book_ensure_packages PACKAGE... -- returns non-zero if something is missing and cannot be installed.
book_ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing missing Debian packages: ${missing[*]}"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "Missing Debian packages. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
}

# book_require_cuda -- the CUDA toolkit is not a Debian package here: say where to get it.
book_require_cuda() {
  if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then return 0; fi
  echo "nvcc not found: install the CUDA toolkit (12.x or 13.x) from https://developer.nvidia.com/cuda-downloads" >&2
  return 1
}

# ccache keys an object by its source's path, and a unity batch's source lies in its build
# directory (build/default/.../unity_0_cxx.cxx, build/exercises/...): without a base directory no
# preset reuses another's host objects, and scripts/check-exercises compiled every batch again
# (237 s of a cold CI's 1,874, 2026-12-01). With it, paths under the checkout are hashed relative
# to the compiler's working directory, the build directory, at the same depth in every preset.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
