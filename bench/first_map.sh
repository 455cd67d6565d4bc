#!/usr/bin/env bash
# Time from starting `attnlab FILE` to the screen showing what it shows once settled: frames of
# the root window are grabbed continuously (xwd, ~30 ms each at 1920x1080); the first frame
# whose pixels equal the settled frame (taken SETTLE seconds in) is when the map was on screen.
# Usage: xvfb-run -a -s "-screen 0 1920x1080x24" bench/first_map.sh build/app/attnlab FILE [SETTLE]
# (needs xwd from x11-apps; the matched frame is kept in $FIRST_FRAME, default /tmp/first-map.xwd)
set -u
bin=$1 file=$2 settle=${3:-8}
dir=$(mktemp -d)
export HOME=$(mktemp -d) XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
start=$(date +%s%N)
"$bin" "$file" >/dev/null 2>&1 &
pid=$!
i=0
while (( ($(date +%s%N) - start) / 1000000 < settle * 1000 )); do
  t=$(( ($(date +%s%N) - start) / 1000000 ))
  xwd -root -silent > "$dir/f$(printf %05d $i)_$t.xwd" 2>/dev/null
  i=$((i + 1))
done
xwd -root -silent > "$dir/final.xwd"
kill $pid 2>/dev/null; wait $pid 2>/dev/null
for f in "$dir"/f*.xwd; do
  if cmp -s "$f" "$dir/final.xwd"; then
    t=${f##*_}; echo "first settled frame at ${t%.xwd} ms (frame $(basename "$f"))"
    cp "$f" "${FIRST_FRAME:-/tmp/first-map.xwd}"
    rm -rf "$dir"; exit 0
  fi
done
echo "no frame matched the settled screen"; rm -rf "$dir"; exit 1
