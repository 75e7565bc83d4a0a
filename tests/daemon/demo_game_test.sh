#!/bin/sh
# The headless demo plays a whole (time-limit) game through the service; its ledger passes `ledger check`;
# the game script exported from the ledger, replayed, gives the final state the table played to; and a demo
# stopped mid-game (SIGTERM) and started again on the same file resumes it and plays it to that same end.
# The camera cross-checks every move: it learns the tokens when the game asks, agrees with most moves, asks
# about a bot's miscount and the bot answers; its learned tokens are kept beside the ledger and reused after
# the restart, and an unreadable stored set-up is said and the tokens are learned again (part "stale").
#   demo_game_test.sh BOARDBANK WORK_DIR [whole|resume|stale]
# BOARDBANK_TEST_TIME_FACTOR (from the build: 20 under an emulator, else 1) goes to the demo's --time-factor: the
# virtual camera renders each picture, which under qemu takes longer than the camera's 1.5 s of allowed silence.
set -eu
bb=$1
dir=$2
part=${3:-whole}
rm -rf "$dir"
mkdir -p "$dir"
demo() { # demo DB STATE_JSON [extra...]
  db=$1 state=$2
  shift 2
  # exec: run in the background, the subshell's pid is boardbank's own, so the SIGTERM below reaches it
  # (a subshell killed instead left boardbank playing on beside the resumed one, on the same file).
  exec "$bb" demo --headless --speed 40 --seed 7 --players 2 --turns 8 --db "$db" --state-json "$state" \
    --time-factor "${BOARDBANK_TEST_TIME_FACTOR:-1}" "$@"
}

echo "== a whole game"
(demo "$dir/whole.db" "$dir/whole.json") | tee "$dir/whole.out"
grep -q "^standings after" "$dir/whole.out"
grep -q "finished" "$dir/whole.out"
test -s "$dir/whole.json"

echo "== ledger check"
"$bb" ledger check "$dir/whole.db"

echo "== the ledger's inputs replayed"
game=$(sed -n 's/^ledger .*: game \([0-9][0-9]*\),.*/\1/p' "$dir/whole.out" | tail -1)
test -n "$game"
"$bb" ledger --db "$dir/whole.db" export "$game" --script > "$dir/whole.jsonl"
"$bb" replay --json "$dir/whole.jsonl" > "$dir/replayed.json"
cmp "$dir/whole.json" "$dir/replayed.json"

echo "== the camera's cross-check"
grep -q "^the camera learns 2 tokens" "$dir/whole.out"
grep -q "^The camera knows every token" "$dir/whole.out"
test -s "$dir/whole.db.tokens.json"
camera=$(grep "^camera: agreed on" "$dir/whole.out")
agreed=$(echo "$camera" | sed -n 's/^camera: agreed on \([0-9]*\) of \([0-9]*\) moves, \([0-9]*\) questions (\([0-9]*\) moves.*/\1/p')
asked=$(echo "$camera" | sed -n 's/^camera: agreed on \([0-9]*\) of \([0-9]*\) moves, \([0-9]*\) questions (\([0-9]*\) moves.*/\3/p')
settled=$(echo "$camera" | sed -n 's/^camera: agreed on \([0-9]*\) of \([0-9]*\) moves, \([0-9]*\) questions (\([0-9]*\) moves.*/\4/p')
miscounted=$(sed -n 's/^demo: .* token moves (\([0-9]*\) miscounted).*/\1/p' "$dir/whole.out")
echo "camera agreed $agreed, asked $asked, settled $settled, bots miscounted $miscounted"
test "$agreed" -ge 3                 # the camera confirmed moves, nothing asked
test "$miscounted" -ge 1             # this seed's bots miscount a move ...
test "$asked" -ge "$miscounted"      # ... the camera asked about it ...
test "$settled" -ge "$miscounted"    # ... and the answer settled it

if [ "$part" = whole ]; then
  echo "demo game test: ok"
  exit 0
fi

echo "== stopped mid-game, then resumed on the same file"
# The moment of the stop does not matter: any moment must resume to the same end. It comes 3 s after the start,
# and not before the camera has kept the tokens it learned (the resumed run must find them): on a loaded machine
# or under an emulator that takes longer than 3 s (waited for up to 10 minutes).
(demo "$dir/resumed.db" "$dir/first.json") > "$dir/first.out" &
pid=$!
sleep 3
waited=0
while ! grep -q "^the camera's learned tokens are kept in" "$dir/first.out" && kill -0 "$pid" 2>/dev/null &&
  [ "$waited" -lt 6000 ]; do
  sleep 0.1
  waited=$((waited + 1))
done
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || true
if [ "$part" = stale ]; then
  echo "not a camera set-up" > "$dir/resumed.db.tokens.json"
fi
(demo "$dir/resumed.db" "$dir/resumed.json") | tee "$dir/resumed.out"
if [ "$part" = stale ]; then
  grep -q "^the camera's stored tokens are not used: .* cannot be used" "$dir/resumed.out"
  grep -q "^the camera learns 2 tokens" "$dir/resumed.out"
  grep -q "^The camera knows every token" "$dir/resumed.out"
else
  grep -q "^the camera knows the 2 tokens learned before" "$dir/resumed.out"
  if grep -q "^the camera learns" "$dir/resumed.out"; then
    echo "the resumed demo learned the tokens again though they were kept"
    exit 1
  fi
fi
"$bb" ledger check "$dir/resumed.db"
cmp "$dir/whole.json" "$dir/resumed.json"
echo "demo game test: ok"
