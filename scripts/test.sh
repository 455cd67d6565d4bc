#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install what is missing, build, run every test through ctest (offscreen).
#   SANITIZE=1 ./scripts/test.sh   the same under ASan + UBSan
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
attnlab_install_missing
attnlab_build
attnlab_sanitizer_env
export QT_QPA_PLATFORM=offscreen
cd "$ATTNLAB_BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" --timeout 600
