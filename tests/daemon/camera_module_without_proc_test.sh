#!/bin/sh
# The camera module is found beside the program, whose place comes from /proc/self/exe. Without /proc (a chroot
# where it is not mounted) there is no file to try: `boardbank track` must say that it cannot tell where it
# lives and what to do (mount /proc, or BOARDBANK_CAPTURE_MODULE), not "missing ... Looked for:" and nothing.
# /proc is hidden by a tmpfs in a mount namespace of its own (unshare); where namespaces are not allowed the
# test says SKIP (exit 77).
# usage: camera_module_without_proc_test.sh BOARDBANK VIDEO-FILE
set -u
boardbank=${1:?usage: camera_module_without_proc_test.sh BOARDBANK VIDEO-FILE}
video=${2:?usage: camera_module_without_proc_test.sh BOARDBANK VIDEO-FILE}
unset BOARDBANK_CAPTURE_MODULE
if ! unshare --mount --map-root-user sh -c 'mount -t tmpfs none /proc && test ! -e /proc/self/exe' 2>/dev/null; then
  echo "SKIP: cannot hide /proc in a mount namespace here (unshare --mount --map-root-user)"
  exit 77
fi
out=$(unshare --mount --map-root-user sh -c 'mount -t tmpfs none /proc && exec "$0" track "$1"' \
  "$boardbank" "$video" 2>&1)
status=$?
echo "$out"
fail() { echo "FAIL: $1 (exit status $status)"; exit 1; }
# A sanitizer build's LeakSanitizer needs /proc at exit (and reads ASAN_OPTIONS from /proc/self/environ, so it
# cannot be switched off here): it then ends the program with its own fatal error after the message. Leaks are
# looked for by every other test; here the message is what is checked.
if echo "$out" | grep -q "LeakSanitizer has encountered a fatal error"; then
  echo "(sanitizer build: LeakSanitizer could not run without /proc; exit status $status not checked)"
else
  [ "$status" -eq 2 ] || fail "expected exit status 2"
fi
echo "$out" | grep -q "cannot tell where it is installed, as /proc/self/exe cannot be read" ||
  fail "the error does not say that the program cannot tell where it lives"
echo "$out" | grep -q "mount /proc" || fail "the error does not say to mount /proc"
echo "$out" | grep -q "BOARDBANK_CAPTURE_MODULE=/.*boardbank_capture.so" ||
  fail "the error does not name BOARDBANK_CAPTURE_MODULE with the module's installed path"
echo "PASS"
