#!/usr/bin/env bash
# The speed guard: counts the machine instructions one game costs, for each game and its main
# policies, with valgrind's callgrind, and compares them with the committed baseline
# (benches/instructions-<profile>.txt). Fails (exit 1) when any case costs more than 2% above its
# baseline, naming the case, its command and the change.
#
#   scripts/instructions.sh                 # build the quick profile, count, compare
#   scripts/instructions.sh war-standard    # only the cases named
#   scripts/instructions.sh --update        # write the baseline anew (commit it with the reason)
#   PROFILE=release scripts/instructions.sh # the release build, against its own baseline
#
# Instruction counts do not depend on the machine's load, unlike times. Each case runs
# `warsim run ... --seed 2 --threads 1` under callgrind, counting only the instructions spent inside
# the runner's per-game loop (`sim::runner::play_into`: the games and their recording), so neither
# the start-up and the files nor the per-chunk set-up, whose share depends on how fast the machine
# runs, enter the count: it is the same from run to run. The counts depend on the compiler: the
# baseline names the rustc it was counted with, and the comparison says so when it differs.
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-quick}
BASELINE=benches/instructions-$PROFILE.txt
TOLERANCE=2 # percent
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# name | N (games, or tournaments) | arguments after `warsim run`
CASES=(
    "war-standard|4000|war"
    "war-seat-order|1000|war --set pickup=seat-order"
    "war-3-players|2000|war --set players=3"
    "scourge-duel|10000|scourge"
    "scourge-4-players|5000|scourge --set players=4"
    "territories-random|2000|territories --set policies=random"
    "territories-greedy|400|territories --set policies=greedy"
    "cardwars-random|2000|cardwars --set policies=random"
    "slots-textless-random|3000|slots --set policies=random"
    "slots-textless-highest|3000|slots --set policies=highest"
    "slots-sample-random|1000|slots --set policies=random --set cards=scenarios/cards/sample.toml"
    "slots-tournament|20|slots --set event=tournament --set cards=scenarios/cards/tournament.toml --set policies=highest --set deal=piles"
)

update=false
only=()
for arg in "$@"; do
    case "$arg" in
        --update) update=true ;;
        -h | --help)
            sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "instructions.sh: unknown option $arg (see --help)" >&2
            exit 2
            ;;
        *) only+=("$arg") ;;
    esac
done

if ! command -v valgrind >/dev/null 2>&1; then
    echo "instructions.sh: valgrind is missing (apt-get install valgrind)" >&2
    exit 2
fi

selected=()
for case in "${CASES[@]}"; do
    name=${case%%|*}
    if [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $name "* ]]; then
        selected+=("$case")
    fi
done
if [ ${#selected[@]} -eq 0 ]; then
    echo "instructions.sh: no case named ${only[*]}" >&2
    exit 2
fi

cargo build --profile "$PROFILE" --locked --bin warsim --quiet
BIN=${CARGO_TARGET_DIR:-target}/$PROFILE/warsim
if [ "$PROFILE" = dev ]; then BIN=${CARGO_TARGET_DIR:-target}/debug/warsim; fi
RUSTC=$(rustc -V)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One counted run: the instructions `warsim run ARGS --games GAMES` spends in its game loop, into
# $work/NAME.
count() {
    local name=$1 games=$2 args=$3 log=$work/$1
    # shellcheck disable=SC2086 # the arguments are split on purpose
    if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log.vg" \
        --collect-atstart=no --toggle-collect='warsim::sim::runner::play_into*' \
        "$BIN" run $args --games "$games" --seed 2 --threads 1 --quiet --out "$work/out.$name" \
        >"$log.out" 2>&1; then
        echo "instructions.sh: $name failed: warsim run $args --games $games" >&2
        cat "$log.out" >&2
        return 1
    fi
    sed -n 's/.*Collected : *//p' "$log.vg" >"$log"
    rm -rf "$work/out.$name"
    if ! [ "$(cat "$log")" -gt 0 ] 2>/dev/null; then
        echo "instructions.sh: $name: nothing counted in sim::runner::play_into (renamed or inlined?)" >&2
        return 1
    fi
}

pids=()
for case in "${selected[@]}"; do
    IFS='|' read -r name n args <<<"$case"
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    count "$name" "$n" "$args" &
    pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
if [ "$failed" -ne 0 ]; then exit 1; fi

# Instructions per game (per tournament for an event) of each selected case.
results=()
for case in "${selected[@]}"; do
    IFS='|' read -r name n args <<<"$case"
    results+=("$name $(($(cat "$work/$name") / n))")
done

if $update; then
    {
        echo "# Instructions per game (per tournament for slots-tournament), counted by"
        echo "# scripts/instructions.sh with PROFILE=$PROFILE. Update only on purpose, with the reason in the commit."
        echo "# compiler: $RUSTC"
        # Cases not counted this time keep their old line.
        if [ -f "$BASELINE" ]; then
            grep -v '^#' "$BASELINE" | while read -r name value; do
                [[ " ${results[*]} " == *" $name "* ]] || echo "$name $value"
            done
        fi
        printf '%s\n' "${results[@]}"
    } >"$BASELINE.new"
    # Keep the order of CASES.
    {
        grep '^#' "$BASELINE.new"
        for case in "${CASES[@]}"; do
            grep "^${case%%|*} " "$BASELINE.new" || true
        done
    } >"$BASELINE"
    rm "$BASELINE.new"
    echo "wrote $BASELINE:"
    grep -v '^#' "$BASELINE"
    exit 0
fi

if [ ! -f "$BASELINE" ]; then
    echo "instructions.sh: no baseline $BASELINE (write one with --update)" >&2
    exit 2
fi
counted_with=$(sed -n 's/^# compiler: //p' "$BASELINE")
if [ "$counted_with" != "$RUSTC" ]; then
    echo "note: the baseline was counted with $counted_with, this build with $RUSTC;" \
        "a different compiler alone can move the counts"
fi

printf '%-24s %14s %14s %8s\n' case baseline now change
status=0
for i in "${!selected[@]}"; do
    IFS='|' read -r name n args <<<"${selected[$i]}"
    now=${results[$i]#* }
    base=$(awk -v n="$name" '$1 == n { print $2 }' "$BASELINE")
    if [ -z "$base" ]; then
        printf '%-24s %14s %14s %8s\n' "$name" - "$now" new
        continue
    fi
    change=$(awk -v a="$now" -v b="$base" 'BEGIN { printf "%+.2f", 100 * (a - b) / b }')
    printf '%-24s %14s %14s %7s%%\n' "$name" "$base" "$now" "$change"
    if awk -v c="$change" -v t="$TOLERANCE" 'BEGIN { exit !(c > t) }'; then
        echo "  ^ slower by more than $TOLERANCE%: warsim run $args --games $n --seed 2 --threads 1"
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "instructions.sh: some cases cost more than $TOLERANCE% above $BASELINE;" \
        "if on purpose, run scripts/instructions.sh --update and give the reason in the commit" >&2
fi
exit "$status"
