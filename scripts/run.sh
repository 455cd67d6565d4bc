#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install what is missing, build in Release, start AttnLab. Arguments go to attnlab.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
attnlab_install_missing
attnlab_build
attnlab_sanitizer_env
exec "$ATTNLAB_BUILD_DIR/app/attnlab" "$@"
