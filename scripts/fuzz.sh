#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets of fuzz/ (Debian's clang 14, -fsanitize=fuzzer,address,undefined)
# in the checked build (build-checked/, which the sanitizer step of .ci/run shares: see
# attnlab_configure_checked in setup.sh) and runs each of them.
#
#   scripts/fuzz.sh [SECONDS]      each target for SECONDS of CPU time (default 600) with its
#                                  committed corpus (fuzz/corpus/<target>) plus a scratch corpus
#                                  (build-checked/corpus/<target>, where new inputs go)
#   scripts/fuzz.sh --corpus-only  each target once over its committed corpus (CI: seconds)
#
#   TARGETS="session config"  only these (names without the attnlab_fuzz_ prefix)
#   JOBS=2                    targets run side by side (default 1; the machine has 2 cores)
#   CHECKED_BUILD_DIR         default build-checked
#
# SECONDS are CPU seconds, not wall seconds: the machine is shared, and a fuzzer that got half a
# core for 600 s has fuzzed for 5 minutes. A watcher interrupts each fuzzer (SIGINT: libFuzzer
# prints its final statistics and exits 72) once its user + system time reaches SECONDS; a fuzzer
# that cannot get that much CPU within 4 x SECONDS of wall time stops there (its CPU time says so).
#
# Per target it prints the wall and CPU seconds, the executions, libFuzzer's coverage (cov: edges, ft: features) and the
# outcome; anything found (crash-*, leak-*, oom-*, timeout-*) is kept in
# build-checked/findings/<target>/ and the full log in build-checked/logs/<target>.log. Exits 1 if any
# target found something. Builds and runs at nice 10.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

mode=fuzz
seconds=600
case "${1:-}" in
  --corpus-only) mode=corpus ;;
  "") ;;
  *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS | --corpus-only]" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac

ALL_TARGETS=(session lesson_catalog safetensors config gpt2_load bert_load hf_load hf_pipeline
  gpt2_encode bert_encode corpus train_options spm_load unigram_json)
read -r -a targets <<<"${TARGETS:-${ALL_TARGETS[*]}}"
jobs=${JOBS:-1}
attnlab_configure_checked
dir="$ATTNLAB_CHECKED_DIR"
build_targets=()
for t in "${targets[@]}"; do build_targets+=("attnlab_fuzz_$t"); done
nice -n 10 cmake --build "$dir" -j 2 --target "${build_targets[@]}"

# A corpus-only run keeps its logs apart, so that it never overwrites those of a fuzzing run.
logs="$dir/logs"
[[ $mode == corpus ]] && logs="$dir/logs-corpus"
mkdir -p "$logs"
# UBSan stops at the first report (the code is built with -fno-sanitize-recover); LeakSanitizer
# runs after every input (libFuzzer's -detect_leaks, on by default).
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

run_one() {
  local t=$1 bin="$dir/fuzz/attnlab_fuzz_$1" seeds="$ATTNLAB_ROOT/fuzz/corpus/$1"
  local log="$logs/$t.log" findings="$dir/findings/$t/" status=0 start=$SECONDS
  mkdir -p "$findings"
  local args=(-rss_limit_mb=2048 -timeout=60 -print_final_stats=1 -artifact_prefix="$findings")
  if [[ $mode == corpus ]]; then
    nice -n 10 "$bin" "${args[@]}" -runs=0 "$seeds" >"$log" 2>&1 || status=$?
  else
    mkdir -p "$dir/corpus/$t"
    nice -n 10 "$bin" "${args[@]}" -max_total_time=$((4 * seconds)) "$dir/corpus/$t" "$seeds" \
      >"$log" 2>&1 &
    local pid=$! tick cpu=0 interrupted=0
    tick=$(getconf CLK_TCK)
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1
      # Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks.
      cpu=$(awk -v t="$tick" '{print int(($14 + $15) / t)}' "/proc/$pid/stat" 2>/dev/null || echo 0)
      if ((cpu >= seconds)); then
        kill -INT "$pid" 2>/dev/null || true
        interrupted=1
        break
      fi
    done
    wait "$pid" || status=$?
    # 72: libFuzzer's exit code when interrupted (-interrupted_exit_code), here by the watcher.
    if ((interrupted && status == 72)); then status=0; fi
  fi
  echo "$status" >"$logs/$t.status"
  echo $((SECONDS - start)) >"$logs/$t.wall"
  # CPU seconds the fuzzer used (this subshell's only child): the machine is shared, so wall
  # time is not CPU time.
  # (`times` itself, not in a pipe: a forked pipeline stage has no children.)
  times >"$logs/$t.times"
  sed -n '2{s/m/ /g;s/s//g;p}' "$logs/$t.times" |
    awk '{printf "%.0f\n", $1*60+$2+$3*60+$4}' >"$logs/$t.cpu"
}

summary() {
  local t=$1 log="$logs/$1.log" status
  status=$(cat "$logs/$t.status")
  local line execs cov ft secs cpu
  cpu=$(cat "$logs/$t.cpu" 2>/dev/null || true)
  # The last status line (DONE, or the last NEW/REDUCE/pulse before an interrupt).
  line=$(grep -aE '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(cat "$logs/$t.wall" 2>/dev/null || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$line")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$line")
  local outcome="ok"
  if [[ $status -ne 0 ]]; then
    failed=1
    outcome="FOUND: $(grep -a -m1 -E 'ERROR: |runtime error|Test unit written' "$log" || echo "exit $status") (see $log)"
  fi
  printf '%-15s %6s s %6s CPU s %12s execs  cov %6s  ft %7s  %s\n' "$t" "${secs:-?}" \
    "${cpu:-?}" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$outcome"
}

if [[ $mode == corpus ]]; then
  echo "== fuzz targets over their committed corpora (fuzz/corpus)"
else
  echo "== fuzzing each target for $seconds s, $jobs at a time"
fi
for t in "${targets[@]}"; do
  run_one "$t" &
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
done
wait
failed=0
for t in "${targets[@]}"; do summary "$t"; done
exit "$failed"
