# tests/expect_exit.cmake - run a program, check its exit code and output (CTest helper).
#
#   cmake -DCOMMAND="prog|--flag|value" -DEXPECT_EXIT=2 -DEXPECT_OUTPUT="regex" [-DNEEDS_GPU=ON] -P expect_exit.cmake
#
# With NEEDS_GPU, a program that reports "no CUDA device" makes the test print
# "SKIPPED (no CUDA device)", which CTest's SKIP_REGULAR_EXPRESSION turns into a skip.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE exit_code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 880)
set(output "${stdout}${stderr}")
message("${output}")

if(NEEDS_GPU AND output MATCHES "no CUDA device")
  message("SKIPPED (no CUDA device): this test runs the program on a GPU")
  return()
endif()
if(NOT "${exit_code}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}, got '${exit_code}'")
endif()
if(NOT "${EXPECT_OUTPUT}" STREQUAL "" AND NOT output MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "the output does not match '${EXPECT_OUTPUT}'")
endif()
