#!/bin/sh
# The headless demo plays a whole (time-limit) game through the service; its ledger passes `ledger check`;
# the game script exported from the ledger, replayed, gives the final state the table played to; and a demo
# stopped mid-game (SIGTERM) and started again on the same file resumes it and plays it to that same end.
#   demo_game_test.sh BOARDBANK WORK_DIR [whole|resume]
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
  exec "$bb" demo --headless --speed 40 --seed 7 --players 2 --turns 8 --db "$db" --state-json "$state" "$@"
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

if [ "$part" = whole ]; then
  echo "demo game test: ok"
  exit 0
fi

echo "== stopped mid-game, then resumed on the same file"
# The moment of the stop does not matter: any moment must resume to the same end.
(demo "$dir/resumed.db" "$dir/first.json") > "$dir/first.out" &
pid=$!
sleep 3
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || true
(demo "$dir/resumed.db" "$dir/resumed.json") | tee "$dir/resumed.out"
"$bb" ledger check "$dir/resumed.db"
cmp "$dir/whole.json" "$dir/resumed.json"
echo "demo game test: ok"
