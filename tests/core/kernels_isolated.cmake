# SPDX-License-Identifier: GPL-3.0-or-later
# Fails if an AVX2 or AVX-512 kernel's object file (OBJECTS: a target's objects; those named
# *_avx2.cpp.o or *_avx512.cpp.o are checked) defines any symbol other code could bind to besides
# its entry points: a weak copy of an inline function or template compiled with -mavx2 or
# -mavx512f could be the copy the linker keeps for every caller, and fault on an older CPU.
set(checked 0)
foreach(object IN LISTS OBJECTS)
  if(NOT object MATCHES "_avx(2|512)\\.cpp\\.o$")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  execute_process(COMMAND nm -C --defined-only ${object} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${object}")
  endif()
  string(REPLACE "\n" ";" lines "${symbols}")
  foreach(line IN LISTS lines)
    # Local symbols (lower-case types) stay in the object; the personality reference is data, and
    # so is the type information of a function type that UBSan's -fsanitize=function emits under
    # clang (the checked build). clang's __clang_call_terminate is two calls
    # (__cxa_begin_catch, std::terminate) and no vector instruction, the same in every unit.
    if(line MATCHES "^[0-9a-f]+ [A-Z] " AND NOT line MATCHES "DW\\.ref\\.__gxx_personality_v0"
       AND NOT line MATCHES " W __clang_call_terminate$"
       AND NOT line MATCHES " [VR] typeinfo (name )?for [^()]*\\(.*\\)$"
       AND NOT line MATCHES " T attn::kernels::detail::[A-Za-z0-9]+(Avx2Fma|Avx512)\\("
       AND NOT line MATCHES " T attn::kernels::detail::avx(2Fma|512)CompiledIn\\(")
      message(FATAL_ERROR "${object} exports ${line}")
    endif()
  endforeach()
endforeach()
if(checked LESS 3)
  message(FATAL_ERROR "expected the AVX2 and AVX-512 units (gemm, activation) among ${OBJECTS}")
endif()
message(STATUS "${checked} AVX2 and AVX-512 units export only their entry points")
