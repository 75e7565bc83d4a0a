#!/bin/sh
# Bad input at the command line is refused with the exact message a person can act on, and nothing stored is
# lost or altered: unknown verbs, out-of-range numbers, mistyped or non-ledger files, comment lines, endless
# sources, standard input from a file. Prints "cli refusals: ok" when every case holds.
#   cli_refusals_test.sh BOARDBANK SCRIPTS_DIR WORK_DIR
set -u
bb=$1
scripts=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"
failed=0

# expect NAME EXIT_CODE TEXT -- COMMAND...: the command exits with EXIT_CODE and its output holds TEXT.
expect() {
  name=$1 code=$2 text=$3
  shift 4
  out=$("$@" 2>&1)
  got=$?
  if [ "$got" -ne "$code" ] || ! printf '%s' "$out" | grep -qF -- "$text"; then
    echo "FAIL $name: exit $got (wanted $code), output:"
    printf '%s\n' "$out" | head -5
    echo "  (wanted to see: $text)"
    failed=1
  else
    echo "ok   $name"
  fi
}

# expect_range NAME OPTION VALUE LOW HIGH -- COMMAND...: refused (exit 105) by CLI11's range check, naming the
# option, the value and both bounds. CLI11 changed the words between versions: "Value 9 not in range 2 to 8"
# (2.3, Debian 12), "Value 9 not in range [2 - 8]" (2.4, Debian 13); either says what to do.
expect_range() {
  name=$1 option=$2 value=$3 low=$4 high=$5
  shift 6
  out=$("$@" 2>&1)
  got=$?
  old="$option: Value $value not in range $low to $high"
  new="$option: Value $value not in range [$low - $high]"
  if [ "$got" -ne 105 ] || ! printf '%s' "$out" | grep -qF -e "$old" -e "$new"; then
    echo "FAIL $name: exit $got (wanted 105), output:"
    printf '%s\n' "$out" | head -5
    echo "  (wanted to see: $old, or: $new)"
    failed=1
  else
    echo "ok   $name"
  fi
}

# --- verbs and numbers
expect unknown_verb 106 "boardbank: 'nosuch' is not a verb. The verbs are: replay," -- "$bb" nosuch
expect unknown_ledger_verb 106 "boardbank ledger: 'lst' is not a verb. The verbs are: list, show, export, check, backup, restore." -- "$bb" ledger lst
expect no_verb 106 "boardbank ledger: say which verb: list, show," -- "$bb" ledger
expect_range negative_games --games -1 1 10000000 -- "$bb" simulate --games -1
expect_range players_range --players 9 2 8 -- "$bb" simulate --players 9
expect_range demo_time_factor_range --time-factor 0 1 100 -- "$bb" demo --headless --time-factor 0
expect screens_too_small 105 "'320x240': give the size as WIDTHxHEIGHT, from 640x400 to 4096x4096" -- "$bb" screens --out "$dir/screens" --size 320x240

# --- ledger files
expect missing_db 1 "does not exist. Check the path (--db, or [ledger] path in the configuration); to start a new, empty ledger there, add --create" -- "$bb" ledger --db "$dir/mistyped.db" list
test -e "$dir/mistyped.db" && { echo "FAIL missing_db: the mistyped path was created"; failed=1; }
expect missing_db_backup 1 "does not exist" -- "$bb" ledger --db "$dir/mistyped.db" --backup-dir "$dir/b" backup
expect create_flag 0 "no games yet" -- "$bb" ledger --db "$dir/new.db" --create list
: > "$dir/zero.db"
expect zero_byte_check 1 "zero.db is empty (0 bytes): it is not a ledger" -- "$bb" ledger check "$dir/zero.db"
echo "shopping list" > "$dir/notes.txt"
expect text_file_check 1 "notes.txt is not a ledger: it is not an SQLite database" -- "$bb" ledger check "$dir/notes.txt"

# --- replay --db takes what plain replay takes; its ledger survives a refused restore
{ echo "# a family's game, with a comment"; cat "$scripts/spec_example.jsonl"; } > "$dir/commented.jsonl"
expect replay_db_comment 0 "game 1: 8 inputs stored now" -- "$bb" replay "$dir/commented.jsonl" --db "$dir/game.db"
cp "$dir/game.db" "$dir/game.before"
expect restore_zero_byte 1 "was not restored, nothing was changed:" -- "$bb" ledger --db "$dir/game.db" restore "$dir/zero.db"
cmp -s "$dir/game.db" "$dir/game.before" || { echo "FAIL restore_zero_byte: the ledger changed"; failed=1; }
expect check_after 0 ": ok (" -- "$bb" ledger check "$dir/game.db"
expect replay_endless 2 "the line is longer than 1048576 bytes" -- "$bb" replay /dev/zero --db "$dir/endless.db"

# --- traces and standard input
expect trace_endless 2 "larger than 256 MiB" -- "$bb" probe --trace /dev/zero
printf '# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n12\0\0 GPIO5 rising\n' > "$dir/nul.trace"
expect trace_nul 2 "trace line 2: the line holds a NUL byte: not a text trace" -- "$bb" probe --trace "$dir/nul.trace"
printf 'card 1A2B3C\n' > "$dir/commands.txt"
expect simulate_from_file 0 '"uid":"1A2B3C"' -- sh -c "exec \"$bb\" probe --simulate < \"$dir/commands.txt\""
expect simulate_from_device 2 "standard input is a device that is not a terminal" -- sh -c "exec \"$bb\" probe --simulate < /dev/zero"

# --- a folder or an endless device where a file is wanted: std::ifstream reads a folder as an empty file, and a
# folder given for the configuration was checked as an empty one and called good
mkdir -p "$dir/a folder"
expect config_folder 1 "is a folder, not a file: give the path of the configuration file" -- "$bb" check-config "$dir/a folder"
expect config_endless 1 "/dev/zero is larger than 1024 KiB, more than the configuration file would ever be" -- "$bb" check-config /dev/zero
expect run_config_folder 2 "is a folder, not a file: give the path of the configuration file" -- "$bb" run --config "$dir/a folder"
expect replay_folder 2 "is a folder, not a file: give the path of the game script" -- "$bb" replay "$dir/a folder"
expect replay_db_folder 2 "is a folder, not a file: give the path of the game script" -- "$bb" replay "$dir/a folder" --db "$dir/folder.db"
test -e "$dir/folder.db" && { echo "FAIL replay_db_folder: a ledger was created for a folder"; failed=1; }
expect replay_db_mistyped 2 "does not exist: check the path to the game script" -- "$bb" replay "$dir/mistyped.jsonl" --db "$dir/mistyped-script.db"
test -e "$dir/mistyped-script.db" && { echo "FAIL replay_db_mistyped: a ledger was created for a mistyped script"; failed=1; }
expect replay_endless_plain 2 "/dev/zero is larger than 65536 KiB, more than the game script would ever be" -- "$bb" replay /dev/zero
expect odds_folder 2 "is a folder, not a file: give the path of the game script" -- "$bb" odds "$dir/a folder"
expect edition_folder 2 "this is a folder, not an edition file: give the path of a .toml file" -- "$bb" check-edition "$dir/a folder"
expect trace_folder 2 "is a folder, not a trace: give the path of a trace file" -- "$bb" probe --trace "$dir/a folder"
expect moves_folder 2 "is a folder, not a file: give the path of the moves file" -- "$bb" render-table --out "$dir/frames" --moves "$dir/a folder"
test -e "$dir/frames" && { echo "FAIL moves_folder: frames were rendered for a folder of moves"; failed=1; }
# --editions names a folder to look in: one that is not there (or a file) was passed over for the others
expect editions_missing 105 "--editions: Directory does not exist: $dir/no-editions" -- "$bb" simulate --editions "$dir/no-editions" --games 1
expect editions_a_file 105 "--editions: Directory is actually a file: $dir/notes.txt" -- "$bb" odds "$scripts/spec_example.jsonl" --editions "$dir/notes.txt"
# --fonts names the folder the screens' letters come from: one without them was passed over for Debian's
expect fonts_missing 1 "$dir/no-fonts holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: name a folder holding both, or leave the font folder empty for Debian's (the package fonts-dejavu-core)" -- "$bb" screens --out "$dir/screens" --fonts "$dir/no-fonts"
printf '[screen]\nfont_dir = "%s"\n' "$dir/no-fonts" > "$dir/fonts.toml"
expect config_fonts_missing 0 "[screen] font_dir $dir/no-fonts holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: name a folder holding both, or leave the font folder empty for Debian's (the package fonts-dejavu-core): the screen will not start" -- "$bb" check-config "$dir/fonts.toml"
expect demo_state_json_folder 2 "--state-json $dir/a folder is a folder: name the file to write the final state to" -- "$bb" demo --headless --turns 1 --db "$dir/demo.db" --state-json "$dir/a folder"
# The same folders named by the environment (systemctl edit can set them) were passed over just as silently
expect editions_env_missing 2 "BOARDBANK_EDITIONS is set to $dir/no-editions, which is not a folder: point it at the folder holding the edition files, or unset it" -- env BOARDBANK_EDITIONS="$dir/no-editions" "$bb" simulate --games 1
expect editions_env_a_file 2 "BOARDBANK_EDITIONS is set to $dir/notes.txt, which is not a folder" -- env BOARDBANK_EDITIONS="$dir/notes.txt" "$bb" replay "$scripts/spec_example.jsonl"
expect editions_env_empty 0 "signature" -- env BOARDBANK_EDITIONS= "$bb" simulate --games 1
expect fonts_env_missing 1 "BOARDBANK_FONT_DIR is set to $dir/no-fonts, which holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: point it at a folder holding both, or unset it for Debian's (the package fonts-dejavu-core)" -- env BOARDBANK_FONT_DIR="$dir/no-fonts" "$bb" screens --out "$dir/screens"
printf '[ledger]\npath = "%s"\n' "$dir/env.db" > "$dir/plain.toml"
expect config_editions_env 0 "BOARDBANK_EDITIONS is set to $dir/no-editions, which is not a folder: point it at the folder holding the edition files, or unset it to use the installed editions: the service will not start" -- env BOARDBANK_EDITIONS="$dir/no-editions" "$bb" check-config "$dir/plain.toml"
expect config_fonts_env 0 "BOARDBANK_FONT_DIR is set to $dir/no-fonts, which holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: point it at a folder holding both, or unset it for Debian's (the package fonts-dejavu-core): the screen will not start" -- env BOARDBANK_FONT_DIR="$dir/no-fonts" "$bb" check-config "$dir/plain.toml"
test -e "$dir/demo.db" && { echo "FAIL demo_state_json_folder: the demo played before refusing"; failed=1; }
expect track_setup_folder 105 "--setup: $dir/a folder is a folder: name the set-up file in it" -- "$bb" track "$dir/a folder" --setup "$dir/a folder"
expect calibrate_setup_folder 105 "--setup: $dir/a folder is a folder: name the set-up file in it" -- "$bb" calibrate "$dir/a folder" --setup "$dir/a folder" --screenshot "$dir/cal.png"
expect replay_from_a_pipe 0 "8 inputs" -- sh -c "cat \"$scripts/spec_example.jsonl\" | exec \"$bb\" replay /dev/stdin"

if [ "$failed" -eq 0 ]; then echo "cli refusals: ok"; else echo "cli refusals: FAILED"; exit 1; fi
