#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Time from starting `attnlab FILE` to the screen showing what it shows once settled: frames of
# the root window are grabbed continuously (ImageMagick's import, ~150 ms each at 1920x1080);
# the first frame whose pixels equal the settled frame (taken SETTLE seconds in) is when the map
# was on screen.
# Usage: xvfb-run -a -s "-screen 0 1920x1080x24" bench/first_map.sh build/app/attnlab FILE [SETTLE]
# Frames are kept as checksums only (a 30 s run would otherwise write gigabytes); the settled
# screen is saved as $FIRST_FRAME (default /tmp/first-map.png). xwd is not used: it grabbed the
# long-session window (a second top-level window) as black on this Xvfb, where import does not.
set -u
bin=$1 file=$2 settle=${3:-8}
interval=${INTERVAL:-0}  # seconds between grabs; each grab takes a core for ~150 ms
dir=$(mktemp -d)
export HOME=$(mktemp -d) XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
start=$(date +%s%N)
"$bin" "$file" >/dev/null 2>&1 &
pid=$!
while (( ($(date +%s%N) - start) / 1000000 < settle * 1000 )); do
  t=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$t $(import -window root rgb:- 2>/dev/null | md5sum | cut -d' ' -f1)" >> "$dir/frames"
  sleep "$interval"
done
import -window root rgb:- > "$dir/final.rgb" 2>/dev/null
import -window root "${FIRST_FRAME:-/tmp/first-map.png}" 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null
final=$(md5sum < "$dir/final.rgb" | cut -d' ' -f1)
t=$(awk -v h="$final" '$2 == h { print $1; exit }' "$dir/frames")
frames=$(wc -l < "$dir/frames")
rm -rf "$dir"
if [ -n "$t" ]; then echo "first settled frame at $t ms ($frames frames)"; exit 0; fi
echo "no frame matched the settled screen"; exit 1
