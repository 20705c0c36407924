# tests/expect_exit.cmake - run a program, check its exit code and output (CTest helper).
#
#   cmake -DCOMMAND="prog|--flag|value" -DEXPECT_EXIT=2 -DEXPECT_OUTPUT="regex" [-DNEEDS_GPU=ON] [-DNEEDS_MEMORY=ON] -P expect_exit.cmake
#
# With NEEDS_GPU, a program that reports "no CUDA device" makes the test print
# "SKIPPED (no CUDA device)", which CTest's SKIP_REGULAR_EXPRESSION turns into a skip. With
# NEEDS_MEMORY, a program that reports too little device or host memory (exit code 3) makes it
# print "SKIPPED (not enough memory)", also a skip.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE exit_code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 880)
set(output "${stdout}${stderr}")
message("${output}")

if(NEEDS_GPU AND output MATCHES "no CUDA device")
  message("SKIPPED (no CUDA device): this test runs the program on a GPU")
  return()
endif()
if(NEEDS_MEMORY AND output MATCHES "needs [0-9.]+ GiB of device memory, but only|out of host memory")
  message("SKIPPED (not enough memory): this test needs a larger GPU or more host memory")
  return()
endif()
if(NOT "${exit_code}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}, got '${exit_code}'")
endif()
if(NOT "${EXPECT_OUTPUT}" STREQUAL "" AND NOT output MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "the output does not match '${EXPECT_OUTPUT}'")
endif()
