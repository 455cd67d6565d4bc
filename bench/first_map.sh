#!/usr/bin/env bash
# Time from starting `attnlab FILE` to the screen showing what it shows once settled: frames of
# the root window are grabbed continuously (xwd, ~30 ms each at 1920x1080); the first frame
# whose pixels equal the settled frame (taken SETTLE seconds in) is when the map was on screen.
# Usage: xvfb-run -a -s "-screen 0 1920x1080x24" bench/first_map.sh build/app/attnlab FILE [SETTLE]
# (needs xwd from x11-apps; frames are kept as checksums only, so that a 30 s run of 8 MB frames
# does not fill the disk; the settled frame is kept in $FIRST_FRAME, default /tmp/first-map.xwd)
set -u
bin=$1 file=$2 settle=${3:-8}
dir=$(mktemp -d)
export HOME=$(mktemp -d) XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
start=$(date +%s%N)
"$bin" "$file" >/dev/null 2>&1 &
pid=$!
while (( ($(date +%s%N) - start) / 1000000 < settle * 1000 )); do
  t=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$t $(xwd -root -silent 2>/dev/null | md5sum | cut -d' ' -f1)" >> "$dir/frames"
done
xwd -root -silent > "$dir/final.xwd"
kill $pid 2>/dev/null; wait $pid 2>/dev/null
final=$(md5sum < "$dir/final.xwd" | cut -d' ' -f1)
cp "$dir/final.xwd" "${FIRST_FRAME:-/tmp/first-map.xwd}"
t=$(awk -v h="$final" '$2 == h { print $1; exit }' "$dir/frames")
rm -rf "$dir"
if [ -n "$t" ]; then echo "first settled frame at $t ms"; exit 0; fi
echo "no frame matched the settled screen"; exit 1
