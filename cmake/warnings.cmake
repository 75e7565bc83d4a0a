# Warnings are errors everywhere; the sanitizer build keeps assertions and adds ASan+UBSan.
add_compile_options(-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Werror)
# Assertions stay on in every build type: a broken invariant is a bug that must stop the bank.
add_compile_options(-UNDEBUG)
if(BOARDBANK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# GCC 12 reports false -Wrestrict and -Wstringop-overflow/overread errors inside libstdc++'s std::string and libfmt
# at -O3 (GCC bugs 105329, 106199); keep the warnings visible but not fatal there, so Release builds of
# correct code do not fail.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-error=restrict -Wno-error=stringop-overflow -Wno-error=stringop-overread)
endif()
