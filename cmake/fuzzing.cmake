# How the libFuzzer targets are compiled and linked (tests/*/fuzz include this file).
# A clang that can compile libstdc++'s <expected> (clang >= 16) builds them natively with -fsanitize=fuzzer.
# Bookworm's clang 14 cannot (no conditionally trivial destructors), so with g++ the code is instrumented
# with -fsanitize-coverage=trace-pc,trace-cmp and linked against clang's libFuzzer runtime;
# tests/peripherals/fuzz/coverage_shim.cpp turns trace-pc into libFuzzer's extra counters.
# Sets fuzz_compile (for the fuzzed library's sources) and defines boardbank_fuzz_target().
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 16)
  set(fuzz_compile -fsanitize=fuzzer-no-link,address,undefined)
  set(fuzz_link -fsanitize=fuzzer,address,undefined)
  set(fuzz_shim "")
  set(fuzz_runtime "")
else()
  execute_process(COMMAND clang --print-runtime-dir OUTPUT_VARIABLE clang_runtime_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  find_file(LIBFUZZER_RUNTIME NAMES libclang_rt.fuzzer-${CMAKE_SYSTEM_PROCESSOR}.a libclang_rt.fuzzer.a
            PATHS ${clang_runtime_dir} NO_DEFAULT_PATH)
  if(NOT LIBFUZZER_RUNTIME)
    message(FATAL_ERROR "BOARDBANK_FUZZ needs clang's libFuzzer runtime: apt-get install clang libclang-rt-14-dev")
  endif()
  set(fuzz_compile -fsanitize-coverage=trace-pc,trace-cmp -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  if(NOT TARGET fuzz_coverage_shim)
    add_library(fuzz_coverage_shim OBJECT ${PROJECT_SOURCE_DIR}/tests/peripherals/fuzz/coverage_shim.cpp)
  endif()
  set(fuzz_shim $<TARGET_OBJECTS:fuzz_coverage_shim>)
  set(fuzz_link -fsanitize=address,undefined -Wl,--allow-multiple-definition)
  set(fuzz_runtime ${LIBFUZZER_RUNTIME})
endif()

# A fuzz target TARGET from TARGET.cpp in the calling folder, linked with the fuzzed LIBRARY.
function(boardbank_fuzz_target target library)
  add_executable(${target} ${target}.cpp ${fuzz_shim})
  target_link_libraries(${target} PRIVATE ${library} ${fuzz_runtime})
  target_link_options(${target} PRIVATE ${fuzz_link})
endfunction()
