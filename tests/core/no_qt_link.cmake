# SPDX-License-Identifier: GPL-3.0-or-later
# Fails if BINARY depends on any Qt shared library (checked with ldd).
execute_process(COMMAND ldd ${BINARY} OUTPUT_VARIABLE deps RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd failed on ${BINARY}")
endif()
if(deps MATCHES "libQt")
  message(FATAL_ERROR "core test binary links Qt:\n${deps}")
endif()
message(STATUS "no Qt library in ${BINARY}")
