# Warnings are errors everywhere; the sanitizer build keeps assertions and adds ASan+UBSan.
add_compile_options(-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Werror)
# Assertions stay on in every build type: a broken invariant is a bug that must stop the bank.
add_compile_options(-UNDEBUG)
if(BOARDBANK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# GCC reports false -Wrestrict and -Wstringop-overflow/overread errors inside libstdc++ (std::string, std::vector
# comparisons) and libfmt at -O3: GCC 12 (bugs 105329, 106199) and GCC 14 on Debian 13 alike. Keep the warnings
# visible but not fatal, so Release builds of correct code do not fail.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-error=restrict -Wno-error=stringop-overflow -Wno-error=stringop-overread)
endif()
# GCC 13+ -Wdangling-reference reports a reference returned from a function that takes a temporary argument even
# when it points elsewhere (tests/vision/identity_test.cpp's renderer_for returns an entry of a static cache):
# a false positive that stopped the Debian 13 (GCC 14) build. Visible, not fatal.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 13)
  add_compile_options(-Wno-error=dangling-reference)
endif()
# A unity build (the sanitizer tree's, see run.sh) includes every source file into a few larger ones, so GCC takes
# a class defined in a .cpp for one defined in a header and warns that its member's type has internal linkage
# (-Wsubobject-linkage). Each .cpp is still its own translation unit in every other build, where it is right.
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-subobject-linkage)
endif()
