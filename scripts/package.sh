#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package: ./scripts/package.sh  ->  build-package/attnlab_VERSION_ARCH.deb
# Installs what is missing (scripts/setup.sh), builds the program in Release for the x86-64
# baseline (ATTNLAB_NATIVE=OFF: the package must run on other CPUs than this one), makes the
# .deb with CPack (Depends from dpkg-shlibdeps), checks it (tests/install/deb_test.sh) and
# prints its path on the last line.
#   BUILD_DIR  where to build (default: build-package)
#   JOBS       parallel compile jobs (default: all cores)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
attnlab_install_missing
dir="${BUILD_DIR:-$ATTNLAB_ROOT/build-package}"
start=$SECONDS
# Only the program and the man page are built: the package does not need the tests or the
# benchmarks, and `cpack` must not build them (CMAKE_SKIP_INSTALL_ALL_DEPENDENCY).
cmake -S "$ATTNLAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_NATIVE=OFF \
  -DATTNLAB_BUILD_BENCH=OFF -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
cmake --build "$dir" -j "${JOBS:-$(nproc)}" --target attnlab attnlab_man
rm -f "$dir"/attnlab_*.deb
(cd "$dir" && cpack --config CPackConfig.cmake -B "$dir")
deb="$(find "$dir" -maxdepth 1 -name 'attnlab_*.deb' | head -1)"
[[ -n $deb ]] || { echo "package.sh: cpack made no attnlab_*.deb" >&2; exit 1; }
bash "$ATTNLAB_ROOT/tests/install/deb_test.sh" "$dir" "$deb"
echo "== package built in $((SECONDS - start)) s; install it with: sudo apt install $deb"
echo "$deb"
