#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by run.sh and test.sh: install what is missing (Debian 12 packages only),
# then configure and build incrementally. Sourced, not run.
#   BUILD_DIR   where to build (default: build, or build-sanitize with SANITIZE=1)
#   SANITIZE=1  ASan + UBSan build (CMake build type "Sanitize")
#   ATTNLAB_UNITY=OFF  one compiler run per source file (default ON: batches of sources, a clean
#               build about three times faster; see attnlab_unity)
set -euo pipefail

ATTNLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ATTNLAB_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-translations-l10n
  libgl-dev
  libqcustomplot-dev libeigen3-dev libgtest-dev libbenchmark-dev nlohmann-json3-dev
  libonig-dev libsentencepiece-dev
  fonts-noto-cjk fonts-dejavu-core fontconfig
  # tests/install and scripts/package.sh: validators, MIME and menu caches, gio, man,
  # dpkg-shlibdeps, lintian
  desktop-file-utils appstream libxml2-utils shared-mime-info libglib2.0-bin groff-base dpkg-dev
  lintian
)
# The checked build only (attnlab_configure_checked): clang 14 with libFuzzer, and clang's OpenMP
# runtime (the core uses OpenMP; clang does not depend on libomp).
ATTNLAB_FUZZ_PACKAGES=(clang libfuzzer-14-dev libomp-14-dev)
# .ci/run's format check only.
ATTNLAB_FORMAT_PACKAGES=(clang-format)

# attnlab_install_missing [EXTRA_PACKAGES...]
attnlab_install_missing() {
  local missing=()
  for p in "${ATTNLAB_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  attnlab_fonts_visible
}

# Installed fonts are not always fonts that fontconfig lists: a machine image can carry a cache
# for /usr/share/fonts/... that is empty yet counts as current (its directory's time matches),
# and fontconfig then reports no font at all. Qt draws no text and measures every label as
# empty, and the layout tests all fail. Rebuilding the cache is what the font packages' own
# trigger should have done.
attnlab_fonts_visible() {
  if fc-list :lang=zh family | grep -q . && fc-list "DejaVu Sans" family | grep -q .; then
    return
  fi
  echo "== fontconfig lists no DejaVu Sans or no Chinese font: rebuilding its cache"
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo fc-cache -f -s
  if ! fc-list :lang=zh family | grep -q . || ! fc-list "DejaVu Sans" family | grep -q .; then
    echo "attnlab: fontconfig still lists no DejaVu Sans or no Chinese font (fc-list);" \
      "the layout tests measure text in them" >&2
    return 1
  fi
}

# Under SANITIZE=1: leaks that system libraries keep until exit are not ours to report
# (tests/sanitizer/lsan.supp); UBSan prints where it stops.
attnlab_sanitizer_env() {
  if [[ "${SANITIZE:-0}" == "1" ]]; then
    export LSAN_OPTIONS="suppressions=$ATTNLAB_ROOT/tests/sanitizer/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  fi
}

# A clean build compiles each batch of about eight sources of a target as one unit (CMake's unity
# build): most of a unit's time is parsing the same Qt, Eigen and GoogleTest headers, which a
# batch parses once. On two cores that cuts a clean build by about three quarters; an edit then
# recompiles its batch. Configure-time only: a build directory keeps what it was configured with.
attnlab_unity() {
  echo "-DCMAKE_UNITY_BUILD=${ATTNLAB_UNITY:-ON}"
}

attnlab_build() {
  local type="Release"
  local dir="${BUILD_DIR:-$ATTNLAB_ROOT/build}"
  if [[ "${SANITIZE:-0}" == "1" ]]; then
    type="Sanitize"
    dir="${BUILD_DIR:-$ATTNLAB_ROOT/build-sanitize}"
  fi
  ATTNLAB_BUILD_DIR="$dir"
  if [[ ! -f "$dir/build.ninja" ]]; then
    cmake -S "$ATTNLAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "$(attnlab_unity)"
  fi
  cmake --build "$dir" -j "$(nproc)"
}

# The checked build (build-checked/, or CHECKED_BUILD_DIR): clang 14 with ASan + UBSan, the core
# and the readers instrumented for libFuzzer as well. One compile of the core serves both the
# sanitizer tests (core_tests, io_tests: .ci/run) and the fuzz targets (scripts/fuzz.sh), which
# link libFuzzer; the tests link only the sanitizers, whose runtime takes the coverage hooks.
# Warnings are not errors here: clang 14 warns where GCC, the compiler of the ordinary build, does
# not (an `omp simd` loop it does not vectorise under the sanitizers). -O1, assertions on: Eigen's
# index checks stay active.
attnlab_configure_checked() {
  attnlab_install_missing "${ATTNLAB_FUZZ_PACKAGES[@]}"
  ATTNLAB_CHECKED_DIR="${CHECKED_BUILD_DIR:-$ATTNLAB_ROOT/build-checked}"
  cmake -S "$ATTNLAB_ROOT" -B "$ATTNLAB_CHECKED_DIR" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=Sanitize -DATTNLAB_BUILD_FUZZ=ON -DATTNLAB_BUILD_READERS=ON \
    -DATTNLAB_BUILD_UI=OFF -DATTNLAB_BUILD_BENCH=OFF -DATTNLAB_WERROR=OFF "$(attnlab_unity)" \
    >/dev/null
}
