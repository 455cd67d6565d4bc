#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# install.destdir_installed_program_runs_and_metadata_validates
#   tests/install/destdir_test.sh BUILD_DIR SOURCE_DIR
# Installs the built tree with `cmake --install BUILD --prefix /usr` into a DESTDIR, runs the
# installed program from there, and checks what a desktop reads: the desktop file, the
# AppStream metainfo, the MIME type (a double-clicked NAME.attnlab.json must be a session that
# opens in AttnLab), the icons and the man page. Uses the program already built; no build.
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
id=io.github.attnlab.AttnLab
session_type=application/x-attnlab-session

for tool in desktop-file-validate appstreamcli xmllint update-mime-database \
  update-desktop-database gio groff readelf; do
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

# A private home: nothing read from or written to the user's settings.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
export XDG_CACHE_HOME="$tmp/home/.cache"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"

dest="$tmp/root"
if ! DESTDIR="$dest" cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  echo "FAIL: cmake --install"
  exit 1
fi

# 1. Exactly these files: the lessons and translations are compiled in (qt_add_resources), so
#    nothing else is installed, and nothing twice.
expected="$tmp/expected.txt"
{
  echo "usr/bin/attnlab"
  echo "usr/share/applications/$id.desktop"
  echo "usr/share/metainfo/$id.metainfo.xml"
  echo "usr/share/mime/packages/$id.xml"
  echo "usr/share/icons/hicolor/scalable/apps/$id.svg"
  for size in 16 24 32 48 64 128 256 512; do
    echo "usr/share/icons/hicolor/${size}x${size}/apps/$id.png"
  done
  echo "usr/share/man/man1/attnlab.1.gz"
  echo "usr/share/doc/attnlab/copyright"
  echo "usr/share/doc/attnlab/changelog.gz"
} | sort >"$expected"
(cd "$dest" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$tmp/installed.txt"
if diff -u "$expected" "$tmp/installed.txt"; then
  pass "installed files are the expected $(wc -l <"$expected")"
else
  fail "installed files differ from the list above (- expected, + installed)"
fi

# 2. The installed program runs from the DESTDIR, away from the source and build trees.
bin="$dest/usr/bin/attnlab"
cd "$tmp"
# Its libraries are the system's: no RUNPATH (not into the build tree, not $ORIGIN/../lib).
readelf -d "$bin" >"$tmp/dynamic.txt"  # a file, so that no SIGPIPE hides a match (pipefail)
if grep -qE 'R(UN)?PATH' "$tmp/dynamic.txt"; then
  fail "the installed binary has a search path: $(readelf -d "$bin" | grep -E 'R(UN)?PATH')"
fi
version="$("$bin" --version)" || fail "attnlab --version"
version="${version#attnlab }"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && pass "attnlab --version: $version" ||
  fail "attnlab --version printed \"$version\""
if "$bin" lessons >"$tmp/lessons.txt" 2>"$tmp/lessons.err" &&
  grep -q '^hand-exercise ' "$tmp/lessons.txt"; then
  pass "installed attnlab lessons lists $(wc -l <"$tmp/lessons.txt") lessons"
else
  fail "installed attnlab lessons: $(cat "$tmp/lessons.txt" "$tmp/lessons.err")"
fi
LANG=zh_CN.UTF-8 LANGUAGE=zh_CN "$bin" lessons >"$tmp/lessons-zh.txt" 2>/dev/null || true
en_title="$(grep '^hand-exercise ' "$tmp/lessons.txt" || true)"
zh_title="$(grep '^hand-exercise ' "$tmp/lessons-zh.txt" || true)"
if [[ -n $zh_title && $zh_title != "$en_title" ]]; then
  pass "the Chinese catalogue is built in: $zh_title"
else
  fail "LANG=zh_CN.UTF-8 attnlab lessons is not translated: \"$zh_title\""
fi
if "$bin" render --lesson hand-exercise -o "$tmp/x.png" >"$tmp/render.log" 2>&1 &&
  [[ $(head -c 8 "$tmp/x.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] &&
  (($(stat -c %s "$tmp/x.png") > 1000)); then
  pass "installed attnlab render --lesson hand-exercise wrote a PNG of $(stat -c %s "$tmp/x.png") bytes"
else
  fail "installed attnlab render: $(cat "$tmp/render.log")"
fi

# 3. The desktop file: valid, and consistent with what is installed.
desktop="$dest/usr/share/applications/$id.desktop"
if desktop-file-validate "$desktop" >"$tmp/dfv.txt" 2>&1 && ! grep -qE 'error|warning' "$tmp/dfv.txt"; then
  pass "desktop-file-validate $(basename "$desktop")$(grep -q hint "$tmp/dfv.txt" && echo ' (hints only)')"
else
  fail "desktop-file-validate: $(cat "$tmp/dfv.txt")"
fi
key() { sed -n "s/^$1=//p" "$desktop" | head -1; }
exec_line="$(key Exec)"
[[ $exec_line == "attnlab %f" && -x "$dest/usr/bin/${exec_line%% *}" ]] &&
  pass "Exec=$exec_line (a session file opens)" || fail "Exec=$exec_line"
[[ $(key Icon) == "$id" && -f "$dest/usr/share/icons/hicolor/scalable/apps/$id.svg" ]] ||
  fail "Icon=$(key Icon) is not the installed $id"
[[ ";$(key MimeType)" == *";$session_type;"* ]] || fail "MimeType=$(key MimeType)"
[[ $(key Categories) == *Education\;* && $(key Categories) == *Science\;* ]] ||
  fail "Categories=$(key Categories)"
for k in 'Name\[zh_CN\]' 'Comment\[zh_CN\]'; do
  [[ -n $(key "$k") ]] || fail "no ${k//\\/} in the desktop file"
done

# 4. AppStream metainfo: valid, its id and launchable match the desktop file, the release is
#    this version, the project licence is LICENSE's, and every screenshot is one of docs/.
metainfo="$dest/usr/share/metainfo/$id.metainfo.xml"
if appstreamcli validate --no-net "$metainfo" >"$tmp/as.txt" 2>&1; then
  pass "appstreamcli validate --no-net: $(tail -1 "$tmp/as.txt" | sed 's/^[^A-Za-z]*//')"
else
  fail "appstreamcli validate --no-net: $(cat "$tmp/as.txt")"
fi
xp() { xmllint --xpath "$1" "$metainfo" 2>/dev/null || true; }
[[ $(xp 'string(/component/id)') == "$id" ]] || fail "metainfo id is not $id"
[[ $(xp 'string(/component/launchable[@type="desktop-id"])') == "$id.desktop" ]] ||
  fail "metainfo launchable is not $id.desktop"
[[ $(xp 'string(/component/releases/release[1]/@version)') == "$version" ]] ||
  fail "metainfo's newest release is not $version"
[[ $(xp 'string(/component/project_license)') == GPL-3.0-or-later ]] ||
  fail "metainfo's project_license is not GPL-3.0-or-later"
{ grep -q 'GNU GENERAL PUBLIC LICENSE' "$src/LICENSE" &&
  grep -q 'Version 3, 29 June 2007' "$src/LICENSE"; } || fail "LICENSE is not the GPL version 3"
shots="$(xp '/component/screenshots/screenshot/image/text()')"
[[ -n $shots ]] || fail "metainfo has no screenshots"
for url in $shots; do
  [[ $url == https://*/docs/*.png && -f "$src/docs/${url##*/}" ]] ||
    fail "screenshot $url is not a file of docs/"
done

# 5. The MIME type: NAME.attnlab.json is a session (above application/json), and the session
#    type opens in AttnLab, as a file manager resolves a double-click.
# The DESTDIR as the desktop sees an installed /usr: its data first, its programs on PATH
# (a desktop file whose TryExec is not found is hidden).
export XDG_DATA_DIRS="$dest/usr/share:/usr/share" PATH="$dest/usr/bin:$PATH"
mimexml="$dest/usr/share/mime/packages/$id.xml"
xmllint --noout "$mimexml" || fail "xmllint $mimexml"
update-mime-database "$dest/usr/share/mime" 2>"$tmp/umd.txt" || fail "update-mime-database"
[[ -s $tmp/umd.txt ]] && fail "update-mime-database: $(cat "$tmp/umd.txt")"
ours="$(grep ":$session_type:\*\.attnlab\.json$" "$dest/usr/share/mime/globs2" | cut -d: -f1)"
json="$(grep -s ':application/json:\*\.json$' /usr/share/mime/globs2 | cut -d: -f1 || true)"
if [[ -n $ours ]] && ((ours > ${json:-50})); then
  pass "glob *.attnlab.json has weight $ours (application/json: ${json:-50})"
else
  fail "no glob *.attnlab.json above application/json in globs2"
fi
update-desktop-database "$dest/usr/share/applications" || fail "update-desktop-database"
grep -q "^$session_type=.*$id.desktop" "$dest/usr/share/applications/mimeinfo.cache" ||
  fail "mimeinfo.cache does not give $session_type to $id.desktop"
cp "$src/resources/lessons/hand-exercise.attnlab.json" "$tmp/my.attnlab.json"
type="$(gio info -a standard::content-type "$tmp/my.attnlab.json" 2>/dev/null |
  sed -n 's/.*standard::content-type: //p')"
[[ $type == "$session_type" ]] && pass "gio: my.attnlab.json is $type" ||
  fail "gio sees my.attnlab.json as \"$type\""
gio mime "$session_type" >"$tmp/gio-mime.txt" 2>&1 || true
grep -q "Default application.*$id.desktop" "$tmp/gio-mime.txt" &&
  pass "gio: the default application for $session_type is $id.desktop" ||
  fail "gio mime $session_type: $(cat "$tmp/gio-mime.txt")"
unset XDG_DATA_DIRS

# 6. The man page: renders without a warning, and names every command, option and exit
#    status that `attnlab --help` names.
man="$dest/usr/share/man/man1/attnlab.1.gz"
zcat "$man" | groff -man -Tutf8 -ww >/dev/null 2>"$tmp/groff.txt" || fail "groff failed"
[[ -s $tmp/groff.txt ]] && fail "groff -man -Tutf8 -ww warns: $(cat "$tmp/groff.txt")" ||
  pass "groff -man -Tutf8 -ww: no warnings"
# One line per paragraph (a wide page, no hyphenation), plain text.
zcat "$man" | groff -man -Tascii -P-cbou -rLL=3000n -rHY=0 2>/dev/null >"$tmp/man.txt"
"$bin" --help >"$tmp/help.txt"
missing=()
for cmd in $(sed -n 's/^ *Usage: attnlab \([a-z][a-z-]*\).*/\1/p' "$tmp/help.txt" | sort -u); do
  grep -q "attnlab $cmd" "$tmp/man.txt" || missing+=("command $cmd")
done
for opt in $(grep -oE -- '(^|[^a-z-])--[a-z][a-z-]*' "$tmp/help.txt" | grep -oE -- '--[a-z-]+' |
  grep -vx -- '--help-all' | sort -u); do
  grep -qE -- "(^|[^a-z-])$opt([^a-z-]|$)" "$tmp/man.txt" || missing+=("option $opt")
done
codes="$(sed -n '/^Exit status:/,/^$/p' "$tmp/help.txt" | grep -oE '\b[0-9]+ [a-z]' | cut -d' ' -f1)"
man_codes="$(sed -n '/^EXIT STATUS/,/^[A-Z]/p' "$tmp/man.txt" | sed -n 's/^ \{7\}\([0-9]\+\) .*/\1/p')"
[[ -n $codes ]] || missing+=("the exit status line of --help")
for c in $codes; do
  grep -qx "$c" <<<"$man_codes" || missing+=("exit status $c")
done
grep -q "AttnLab $version" "$tmp/man.txt" || missing+=("version $version in the title line")
if ((${#missing[@]})); then
  fail "the man page lacks: ${missing[*]}"
else
  pass "the man page covers every command, option and exit status (${codes//$'\n'/ }) of --help"
fi

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all install checks passed"
