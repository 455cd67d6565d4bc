#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Gives every tracked source file an SPDX line naming AttnLab's licence (LICENSE), so that a
# file copied out of the tree still says under which terms:
#   scripts/spdx.sh           add the line where it is missing (first line, after a shebang)
#   scripts/spdx.sh --check   change nothing; list the files without it and exit 1 if any
# C++ and JavaScript get `// SPDX-License-Identifier: GPL-3.0-or-later`; CMake, shell and
# Python get the `#` form. A file that has the line in its first two lines is left alone, so
# running it twice changes nothing. Data (fuzz corpora, fixtures, lessons, docs) is not source
# and gets no line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tag="SPDX-License-Identifier: GPL-3.0-or-later"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *)
    echo "usage: scripts/spdx.sh [--check]" >&2
    exit 2
    ;;
esac

# The comment leader for a source file, or nothing for a file that is not source.
leader() {
  case "$1" in
    *.cpp | *.h | *.hpp | *.js) echo "//" ;;
    *.cmake | */CMakeLists.txt | CMakeLists.txt | *.sh | *.py) echo "#" ;;
    *)
      # Scripts without an extension (.ci/run) are known by their shebang.
      if [[ $(head -c 2 "$1") == "#!" ]]; then echo "#"; fi
      ;;
  esac
}

missing=0
while IFS= read -r -d '' file; do
  case "$file" in
    fuzz/corpus/* | tests/reference/fixtures/* | resources/* | docs/*) continue ;;
  esac
  [[ -f $file && ! -L $file ]] || continue
  lead="$(leader "$file")"
  [[ -n $lead ]] || continue
  head -n 2 "$file" | grep -q "SPDX-License-Identifier:" && continue
  missing=$((missing + 1))
  if ((check)); then
    echo "no SPDX line: $file"
    continue
  fi
  tmp="$(mktemp "$file.spdx.XXXXXX")"
  if [[ $(head -c 2 "$file") == "#!" ]]; then
    { head -n 1 "$file"; echo "$lead $tag"; tail -n +2 "$file"; } >"$tmp"
  else
    { echo "$lead $tag"; cat "$file"; } >"$tmp"
  fi
  chmod --reference="$file" "$tmp"
  mv "$tmp" "$file"
done < <(git ls-files -z)

if ((check)); then
  if ((missing)); then
    echo "spdx.sh --check: $missing file(s) lack \"$tag\" (scripts/spdx.sh adds it)"
    exit 1
  fi
  echo "spdx.sh --check: every source file has its SPDX line"
elif ((missing)); then
  echo "spdx.sh: added the SPDX line to $missing file(s)"
else
  echo "spdx.sh: every source file already had its SPDX line"
fi
