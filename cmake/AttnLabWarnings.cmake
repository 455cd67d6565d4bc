# SPDX-License-Identifier: GPL-3.0-or-later
# attnlab_target_defaults(<target>): warnings (as errors) and CPU tuning for our
# own targets only. System and vendored headers are included as SYSTEM through
# their imported targets, so their warnings do not stop the build.
function(attnlab_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wold-style-cast)
  if(ATTNLAB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(ATTNLAB_NATIVE)
    # GCC 12 reports false "maybe-uninitialized" warnings inside its own AVX-512
    # intrinsics headers (avx512fintrin.h) when Eigen inlines them; they are not ours.
    # At -O1 (the Sanitize build) the same false report comes as "uninitialized".
    target_compile_options(${target} PRIVATE -march=native -Wno-maybe-uninitialized
                                             $<$<CONFIG:Sanitize>:-Wno-uninitialized>)
  endif()
endfunction()
