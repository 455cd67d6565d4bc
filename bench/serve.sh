# SPDX-License-Identifier: GPL-3.0-or-later
# bench/serve.sh: sourced by model_compare.sh and decoder_compare.sh. A round of interleaved
# passes: every side (ours, PyTorch, each with or without OMP_WAIT_POLICY=PASSIVE) is started
# with --serve and warmed up alone, then the passes alternate between them, one at a time and in
# a rotating order, so that a slow spell of a shared machine meets every side alike rather than
# whichever ran its passes then. Each side's RESULT lines go to its own file, as a side run on
# its own would write them.
#
#   serve_round DIR REPS TOKENS NAME1 "CMD1" NAME2 "CMD2" ...
#       CMD (a string, run by bash) must accept --serve; its RESULT lines go to DIR/NAME.txt,
#       other lines to stderr. REPS passes per token count (TOKENS, comma-separated) per side.
#       SERVE_PAUSE (seconds, default 0.3) between passes lets the previous side's threads stop
#       spinning (OpenBLAS's spin for about 0.1 s after a product) before the next one starts.
#   run_sides DIR NAME1 "CMD1" ...
#       the same sides without --serve, each running all its passes in one go, one after the
#       other (INTERLEAVE=0)
#   run_round DIR REPS TOKENS NAME1 "CMD1" ...
#       serve_round, or run_sides when INTERLEAVE=0

# Reads side $1's output until a line starting with $2; 1 if it ended first.
serve_read() {
    local fd="${SERVE_OUT[$1]}" line
    while IFS= read -r line <&"$fd"; do
        [[ "$line" == "$2"* ]] && return 0
        if [[ "$line" == RESULT* ]]; then
            printf '%s\n' "$line" >>"${SERVE_FILE[$1]}"
        else
            printf '%s\n' "$line" >&2
        fi
    done
    return 1
}

serve_round() {
    local dir="$1" reps="$2" tokens="$3"
    shift 3
    declare -gA SERVE_IN=() SERVE_OUT=() SERVE_FILE=() SERVE_PID=()
    local names=() name cmd fd
    while (($# >= 2)); do
        name="$1" cmd="$2"
        shift 2
        names+=("$name")
        SERVE_FILE[$name]="$dir/$name.txt"
        : >"${SERVE_FILE[$name]}"
        mkfifo "$dir/$name.in" "$dir/$name.out"
        # Without the ends of the sides started before: a copy held open here would keep a side's
        # input from ending when this script closes it.
        (
            for fd in "${SERVE_IN[@]}" "${SERVE_OUT[@]}"; do eval "exec $fd>&-"; done
            exec bash -c "$cmd --serve"
        ) <"$dir/$name.in" >"$dir/$name.out" &
        SERVE_PID[$name]=$!
        exec {fd}>"$dir/$name.in"
        SERVE_IN[$name]=$fd
        exec {fd}<"$dir/$name.out"
        SERVE_OUT[$name]=$fd
        log "$name: warming up (load $(load))"
        serve_read "$name" READY || { log "$name ended before it was ready"; return 1; }
    done
    local count=${#names[@]} rep n k
    for ((rep = 0; rep < reps; ++rep)); do
        for n in ${tokens//,/ }; do
            for ((k = 0; k < count; ++k)); do
                name="${names[$(((rep + k) % count))]}"
                sleep "${SERVE_PAUSE:-0.3}"
                printf '%s\n' "$n" >&"${SERVE_IN[$name]}"
                serve_read "$name" SERVED || { log "$name ended during a pass"; return 1; }
            done
        done
        log "pass $((rep + 1)) of $reps done (load $(load))"
    done
    for name in "${names[@]}"; do
        eval "exec ${SERVE_IN[$name]}>&-"
        serve_read "$name" "never a line" || true
        eval "exec ${SERVE_OUT[$name]}<&-"
        wait "${SERVE_PID[$name]}" || { log "$name failed"; return 1; }
        rm -f "$dir/$name.in" "$dir/$name.out"
    done
}

run_sides() {
    local dir="$1"
    shift
    while (($# >= 2)); do
        log "$1 (load $(load))"
        bash -c "$2" | tee "$dir/$1.txt" | grep -v '^RESULT ' >&2
        shift 2
    done
}

run_round() {
    if [[ "${INTERLEAVE:-1}" == 1 ]]; then
        serve_round "$@"
    else
        run_sides "$1" "${@:4}"
    fi
}
