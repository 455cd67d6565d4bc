#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# install.deb_depends_come_from_shlibdeps_and_files_are_listed
#   tests/install/deb_test.sh BUILD_DIR [PACKAGE.deb]
# Without PACKAGE.deb: cpack the built tree (no new build) into a temporary folder. Then
# checks `dpkg-deb --info` (Depends made by dpkg-shlibdeps from the libraries the program
# links, not a hand-written list) and `dpkg-deb --contents` (the program, menu entry, icons,
# metainfo, MIME type, man page, copyright; nothing outside /usr), runs the packaged program
# and runs lintian on the package.
# scripts/package.sh runs it on the package it made.
set -euo pipefail
build="$(cd "$1" && pwd)"
deb="${2:-}"
id=io.github.attnlab.AttnLab
for tool in dpkg-deb dpkg-shlibdeps cpack readelf lintian; do
  command -v "$tool" >/dev/null || {
    echo "FAIL: $tool is missing (./scripts/test.sh installs it, see scripts/setup.sh)"
    exit 1
  }
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

if [[ -z $deb ]]; then
  start=$SECONDS
  if ! (cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -B "$tmp/package") \
    >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log"
    echo "FAIL: cpack"
    exit 1
  fi
  deb="$(find "$tmp/package" -maxdepth 1 -name 'attnlab_*.deb' | head -1)"
  [[ -n $deb ]] || {
    cat "$tmp/cpack.log"
    echo "FAIL: cpack made no attnlab_*.deb"
    exit 1
  }
  pass "cpack made $(basename "$deb") in $((SECONDS - start)) s"
fi
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"

# 1. dpkg-deb --info
dpkg-deb --info "$deb" >"$tmp/info.txt" || fail "dpkg-deb --info"
field() { dpkg-deb --field "$deb" "$1"; }
version="$("$build/app/attnlab" --version 2>/dev/null || true)"
[[ $(field Package) == attnlab ]] || fail "Package: $(field Package)"
[[ -z $version || $(field Version) == "${version#attnlab }" ]] ||
  fail "Version: $(field Version), the program says ${version#attnlab }"
[[ $(field Architecture) == "$(dpkg --print-architecture)" ]] ||
  fail "Architecture: $(field Architecture)"
[[ -n $(field Maintainer) && -n $(field Description) ]] || fail "no Maintainer or Description"
depends="$(field Depends)"
echo "Depends: $depends"
mapfile -t entries < <(tr ',' '\n' <<<"$depends" | sed 's/^ *//')
# Every entry carries the minimum version from its library's shlibs file: none was written
# by hand (a hand-written list names packages without versions, or misses some).
for dep in "${entries[@]}"; do
  [[ $dep == *"(>= "* || $dep == *"(= "* ]] || fail "Depends entry without a version: $dep"
done
missing=()
for pkg in libc6 libstdc++6 libgomp1 libonig5 libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6 \
  libqcustomplot; do
  found=0
  for dep in "${entries[@]}"; do [[ $dep == "$pkg"* ]] && found=1; done
  ((found)) || missing+=("$pkg")
done
if ((${#missing[@]})); then
  fail "Depends lacks ${missing[*]} (dpkg-shlibdeps gives the libraries the program links)"
else
  pass "Depends lists the ${#entries[@]} packages of the linked libraries, each with its shlibs version"
fi
[[ $(field Recommends) == *fonts-noto-cjk* ]] || fail "Recommends: $(field Recommends)"
# Listed into a file first: under pipefail, `grep -q` leaving early would give tar a SIGPIPE.
dpkg-deb --ctrl-tarfile "$deb" | tar -t >"$tmp/control-files.txt"
grep -qx './md5sums' "$tmp/control-files.txt" || fail "no md5sums"

# 2. dpkg-deb --contents
dpkg-deb --contents "$deb" >"$tmp/contents.txt" || fail "dpkg-deb --contents"
awk '{print $6}' "$tmp/contents.txt" | sed 's|/$||' | sort >"$tmp/paths.txt"
missing=()
for path in ./usr/bin/attnlab ./usr/share/applications/$id.desktop \
  ./usr/share/metainfo/$id.metainfo.xml ./usr/share/mime/packages/$id.xml \
  ./usr/share/icons/hicolor/scalable/apps/$id.svg ./usr/share/man/man1/attnlab.1.gz \
  ./usr/share/doc/attnlab/copyright ./usr/share/doc/attnlab/changelog.gz; do
  grep -qx "$path" "$tmp/paths.txt" || missing+=("$path")
done
for size in 16 24 32 48 64 128 256 512; do
  p="./usr/share/icons/hicolor/${size}x${size}/apps/$id.png"
  grep -qx "$p" "$tmp/paths.txt" || missing+=("$p")
done
if ((${#missing[@]})); then
  fail "the package lacks ${missing[*]}"
else
  pass "the package holds the program, desktop file, 9 icons, metainfo, MIME type, man page," \
    "copyright"
fi
outside="$(grep -vE '^\.(/usr(/.*)?)?$' "$tmp/paths.txt" || true)"
[[ -z $outside ]] || fail "files outside /usr: $outside"
grep -qE '^-rwxr-xr-x root/root .* \./usr/bin/attnlab$' "$tmp/contents.txt" ||
  fail "usr/bin/attnlab is not -rwxr-xr-x root/root"

# 3. The packaged program runs, and is stripped.
dpkg-deb -x "$deb" "$tmp/x"
if out="$(QT_QPA_PLATFORM=offscreen "$tmp/x/usr/bin/attnlab" --version 2>&1)"; then
  pass "the packaged program runs: $out"
else
  fail "the packaged attnlab --version: $out"
fi
readelf -S "$tmp/x/usr/bin/attnlab" >"$tmp/sections.txt"
grep -q '\.symtab' "$tmp/sections.txt" && fail "the packaged program is not stripped"

# 4. The licence: a machine-readable (DEP-5) copyright file that gives AttnLab's licence, and
#    lintian, which reads the package as Debian's archive would, finds no error.
copyright="$tmp/x/usr/share/doc/attnlab/copyright"
dep5='Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/'
if [[ -f $copyright && $(head -1 "$copyright") == "$dep5" ]] &&
  grep -qx 'License: GPL-3+' "$copyright"; then
  pass "usr/share/doc/attnlab/copyright is DEP-5 and gives GPL-3+"
else
  fail "usr/share/doc/attnlab/copyright is missing, not DEP-5, or does not give GPL-3+"
fi
lintian --tag-display-limit 0 "$deb" >"$tmp/lintian.txt" 2>&1 || true
if grep -q '^E: ' "$tmp/lintian.txt"; then
  fail "lintian reports errors: $(grep '^E: ' "$tmp/lintian.txt")"
else
  pass "lintian: no error ($(grep -c '^W: ' "$tmp/lintian.txt" || true) warnings)"
  grep '^W: ' "$tmp/lintian.txt" || true
fi

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all package checks passed: $deb"
