# Fails if the AVX2 kernel's object file (OBJECTS: a target's objects; the one named
# gemm_avx2.cpp.o is checked) defines any symbol other code could bind to besides its entry
# points: a weak copy of an inline function or template compiled with -mavx2 could be the copy
# the linker keeps for every caller, and fault on a CPU without AVX2.
foreach(object IN LISTS OBJECTS)
  if(object MATCHES "gemm_avx2\\.cpp\\.o$")
    set(found ${object})
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "no gemm_avx2.cpp.o among ${OBJECTS}")
endif()
execute_process(COMMAND nm -C --defined-only ${found} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${found}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
foreach(line IN LISTS lines)
  # Local symbols (lower-case types) stay in the object; the personality reference is data.
  if(line MATCHES "^[0-9a-f]+ [A-Z] " AND NOT line MATCHES "DW\\.ref\\.__gxx_personality_v0"
     AND NOT line MATCHES " T attn::kernels::detail::(sgemmAvx2Fma|avx2FmaCompiledIn)\\(")
    message(FATAL_ERROR "gemm_avx2.cpp.o exports ${line}")
  endif()
endforeach()
message(STATUS "gemm_avx2.cpp.o exports only its entry points")
