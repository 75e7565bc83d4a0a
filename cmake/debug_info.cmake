# Debug information: line tables only (-g1) unless BOARDBANK_FULL_DEBUG_INFO is on. A backtrace (ASan's and
# UBSan's reports, a core dump in the journal) still names every function, file and line; what goes is gdb's
# view of local variables and types, which costs a third of the compile time at -O2 on a machine of two cores
# (the Pi, CI). The option comes after CMake's own -g, so it is the one the compiler keeps.
option(BOARDBANK_FULL_DEBUG_INFO "Full debug information (-g) for stepping through the program with gdb" OFF)
if(NOT BOARDBANK_FULL_DEBUG_INFO)
  add_compile_options($<$<CONFIG:Debug,RelWithDebInfo>:-g1>)
endif()
