# Warnings are errors everywhere; the sanitizer build keeps assertions and adds ASan+UBSan.
add_compile_options(-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Werror)
# Assertions stay on in every build type: a broken invariant is a bug that must stop the bank.
add_compile_options(-UNDEBUG)
if(BOARDBANK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
