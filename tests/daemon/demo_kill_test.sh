#!/bin/sh
# kill -9 of the headless demo at KILLS moments of one game, restarting on the same ledger file each time.
# Each restart must resume where the killed process stood: "Resumed game G from input M" with M at least the
# inputs the killed process said it stored (nothing lost) and never fewer than the restart before it;
# the file passes `ledger check` (nothing half-written, every balance and the hash chain intact); and the
# game, played to its end, ends in exactly the state of the same seed's game played without a kill (nothing
# lost or doubled: one tap posted twice or missing would change the money).
#
# The moments are seeded and spread over the game: three in four are a delay of 0.05 to 0.7 s after the start
# (in the middle of opening the ledger, the replay, the bots putting the tokens back, or play), one in four
# is right after the process has stored one more input plus up to 0.4 s (mid-turn: a throw stored,
# a rent waiting for its tap, a purchase).
#   demo_kill_test.sh BOARDBANK WORK_DIR [KILLS]
# BOARDBANK_TEST_TIME_FACTOR (from the build: 20 under an emulator, else 1) goes to the demo's --time-factor.
set -eu
bb=$1
dir=$2
kills=${3:-50}
rm -rf "$dir"
mkdir -p "$dir"

demo() { # demo DB STATE_JSON: exec, so that the background job's pid is boardbank's own
  exec "$bb" demo --headless --log-inputs --speed 40 --seed 11 --players 2 --turns 40 --db "$1" \
    --state-json "$2" --time-factor "${BOARDBANK_TEST_TIME_FACTOR:-1}"
}
fail() {
  echo "demo kill test: FAILED: $*"
  exit 1
}
# How many inputs the game held when a run was killed, as far as it said: its last "input SEQ:" line (SEQ counts
# from 0) plus one; 0 when it stored none.
stored_count() {
  seq=$(sed -n 's/^input \([0-9][0-9]*\):.*/\1/p' "$1" | tail -1)
  if [ -n "$seq" ]; then echo $((seq + 1)); else echo 0; fi
}
inputs_printed() { cat "$1" 2>/dev/null | grep -c '^input [0-9]' || true; }
seeded() { awk -v s="$1" -v lo="$2" -v hi="$3" 'BEGIN { srand(s); printf "%.2f", lo + rand() * (hi - lo) }'; }

echo "== the game played without a kill"
(demo "$dir/whole.db" "$dir/whole.json") > "$dir/whole.out"
test -s "$dir/whole.json" || fail "the uninterrupted game did not end"
grep -q "finished" "$dir/whole.out" || fail "the uninterrupted game did not finish"

echo "== killed with SIGKILL at $kills moments"
db="$dir/killed.db"
resumed_before=0
stored_before=0
i=0
while [ "$i" -lt "$kills" ]; do
  i=$((i + 1))
  out="$dir/run$i.out"
  (demo "$db" "$dir/killed.json") > "$out" 2>&1 &
  pid=$!
  if [ $((i % 4)) -eq 0 ]; then
    want=1
    extra=$(seeded "$((i * 13))" 0 0.4)
    how="after $want more input(s) + ${extra}s"
    waited=0
    while [ "$(inputs_printed "$out")" -lt "$want" ] && kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 600 ]; do
      sleep 0.05
      waited=$((waited + 1))
    done
    sleep "$extra"
  else
    delay=$(seeded "$i" 0.05 0.7)
    how="after ${delay}s"
    sleep "$delay"
  fi
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if grep -q "^standings after" "$out"; then
    fail "kill $i came after the game ended: give the game more turns"
  fi
  if [ "$i" -gt 1 ]; then
    # The run before this one was killed having said the game held $stored_before inputs; it may have stored
    # more and died before saying so (one event can store several: a throw onto Chance stores the roll and
    # the draw, and their lines are printed after both commits). Doubles show in the final comparison.
    resumed=$(sed -n 's/^Resumed game [0-9]* from input \([0-9][0-9]*\).*/\1/p' "$out" | head -1)
    if [ -z "$resumed" ]; then
      # Killed before it got as far as resuming, or no input was stored yet (a new game is then right).
      if [ "$stored_before" -gt 0 ] && grep -q "table ready" "$out"; then
        fail "run $i was ready without saying from which input it resumed"
      fi
    else
      [ "$resumed" -ge "$stored_before" ] ||
        fail "run $i resumed from input $resumed, but run $((i - 1)) had stored $stored_before inputs"
      [ "$resumed" -ge "$resumed_before" ] ||
        fail "run $i resumed from input $resumed, fewer than the $resumed_before before it"
      resumed_before=$resumed
    fi
  fi
  stored=$(stored_count "$out")
  [ "$stored" -gt "$stored_before" ] && stored_before=$stored
  [ -n "${resumed:-}" ] && [ "$resumed" -gt "$stored_before" ] && stored_before=$resumed
  echo "kill $i $how: resumed from input ${resumed:-?}, $stored_before inputs stored"
  resumed=
  if [ $((i % 10)) -eq 0 ]; then
    "$bb" ledger check "$db" > "$dir/check$i.out" || fail "ledger check after kill $i: $(cat "$dir/check$i.out")"
  fi
done

echo "== played to the end"
(demo "$db" "$dir/killed.json") > "$dir/final.out"
resumed=$(sed -n 's/^Resumed game [0-9]* from input \([0-9][0-9]*\).*/\1/p' "$dir/final.out" | head -1)
[ -n "$resumed" ] && [ "$resumed" -ge "$stored_before" ] ||
  fail "the last run resumed from input '${resumed}', the killed ones had stored $stored_before inputs"
"$bb" ledger check "$db" || fail "ledger check at the end"
test -s "$dir/killed.json" || fail "the killed game did not end"
cmp "$dir/whole.json" "$dir/killed.json" || fail "the killed game ended differently from the uninterrupted one"
echo "demo kill test: ok ($kills kills, the last resumed from input $resumed)"
