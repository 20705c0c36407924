# common/ScanGallery.cmake - the build pieces every chapter shares.
#
#   add_chapter(03_hillis_steele)   program, tests and tour entries of one chapter folder
#   add_tour()                      the tour program over every chapter added before it
#
# Each chapter is its own set of targets, so a chapter that fails to compile shows up as
# that chapter's targets failing (the presets build with -k 0 and carry on with the rest).

include_guard(GLOBAL)

# ---- doctest: installed, else a pinned release fetched at configure time ----------------
# The doctest target's include directory is taken from where its header really is:
# Debian's package config names /usr/include even when the package is unpacked elsewhere.
add_library(scan_gallery_doctest INTERFACE)
find_package(doctest 2.4 CONFIG QUIET)
if(doctest_FOUND)
  find_path(SCAN_GALLERY_DOCTEST_INCLUDE_DIR doctest/doctest.h HINTS "${doctest_DIR}/../../../include")
endif()
if(doctest_FOUND AND SCAN_GALLERY_DOCTEST_INCLUDE_DIR)
  message(STATUS "Scan Gallery: doctest ${doctest_VERSION} found at ${SCAN_GALLERY_DOCTEST_INCLUDE_DIR}")
  target_include_directories(scan_gallery_doctest INTERFACE "${SCAN_GALLERY_DOCTEST_INCLUDE_DIR}")
else()
  set(doctest_url "https://github.com/doctest/doctest/archive/refs/tags/v2.4.11.tar.gz")
  set(doctest_sha256 "632ed2c05a7f53fa961381497bf8069093f0d6628c5f26286161fbd32a560186")
  set(doctest_archive "${PROJECT_BINARY_DIR}/_deps/doctest-v2.4.11.tar.gz")
  if(NOT EXISTS "${doctest_archive}")
    message(STATUS "Scan Gallery: doctest not installed, downloading ${doctest_url}")
    file(DOWNLOAD "${doctest_url}" "${doctest_archive}" EXPECTED_HASH SHA256=${doctest_sha256} STATUS download_status)
    list(GET download_status 0 download_code)
    if(NOT download_code EQUAL 0)
      file(REMOVE "${doctest_archive}")
      list(GET download_status 1 download_message)
      message(FATAL_ERROR
        "doctest (the test framework) is not installed and could not be downloaded: ${download_message}\n"
        "Install it, then configure again:\n"
        "  Debian/Ubuntu: sudo apt-get install doctest-dev\n"
        "  macOS:         brew install doctest\n"
        "  vcpkg:         vcpkg install doctest\n"
        "or point CMAKE_PREFIX_PATH at a doctest installation (the folder holding lib/cmake/doctest).")
    endif()
  endif()
  include(FetchContent)
  set(DOCTEST_WITH_TESTS OFF CACHE BOOL "" FORCE)
  set(DOCTEST_NO_INSTALL ON CACHE BOOL "" FORCE)
  FetchContent_Declare(doctest URL "${doctest_archive}" URL_HASH SHA256=${doctest_sha256} DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  FetchContent_MakeAvailable(doctest)
  target_link_libraries(scan_gallery_doctest INTERFACE doctest::doctest)
endif()

# ---- the harness: header-only, one interface target everything links ---------------------
add_library(scan_gallery_harness INTERFACE)
target_include_directories(scan_gallery_harness INTERFACE "${PROJECT_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}/chapters")
target_link_libraries(scan_gallery_harness INTERFACE CUDA::cudart CUDA::nvtx3)
target_compile_options(scan_gallery_harness INTERFACE
  # -lineinfo: the profiler's source view maps SASS back to these lines, at no speed cost
  "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;--expt-relaxed-constexpr;-Xcompiler=-Wall,-Wextra>"
  "$<$<COMPILE_LANGUAGE:CXX>:-Wall;-Wextra>")

# ---- doctest main, shared by every test executable ---------------------------------------
add_library(scan_gallery_test_main STATIC "${PROJECT_SOURCE_DIR}/tests/support/test_main.cpp")
target_link_libraries(scan_gallery_test_main PUBLIC scan_gallery_harness scan_gallery_doctest)

set(SCAN_GALLERY_EXPECT_EXIT "${PROJECT_SOURCE_DIR}/tests/expect_exit.cmake")

# Registers a test that runs `COMMAND ...` and expects exit code EXIT and output matching
# OUTPUT. NEEDS_GPU: without a CUDA device the test is reported as skipped. NEEDS_MEMORY: when
# the program says the device or the host has not enough memory, the test is skipped too.
function(add_cli_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NEEDS_GPU;NEEDS_MEMORY" "EXIT;OUTPUT;LABELS;ENVIRONMENT" "COMMAND")
  list(JOIN arg_COMMAND "|" command)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" "-DEXPECT_EXIT=${arg_EXIT}" "-DEXPECT_OUTPUT=${arg_OUTPUT}"
                   "-DNEEDS_GPU=${arg_NEEDS_GPU}" "-DNEEDS_MEMORY=${arg_NEEDS_MEMORY}" -P "${SCAN_GALLERY_EXPECT_EXIT}")
  set(labels ${arg_LABELS} cli)
  if(arg_NEEDS_GPU)
    list(APPEND labels gpu)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${labels}"
                       SKIP_REGULAR_EXPRESSION "SKIPPED \\((no CUDA device|not enough memory)\\)")
  if(arg_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
endfunction()

# ---- add_chapter -------------------------------------------------------------------------
# chapters/<NN_idea>/ holds variants.cu (the list the program, tests and tour share),
# main.cu (the program), test.cu (doctest) and README.md. Targets:
#   <NN_idea>            the program, in build/bin
#   <NN_idea>_tests      its tests: CTest runs "<NN_idea>.host" everywhere and
#                        "<NN_idea>.gpu" (label gpu; skipped without a device)
#   <NN_idea>_variants   the variant list, linked into the program, the tests and the tour
# Options for chapters that scan whole arrays:
#   SUITE                the 2,022-size suite (suite.hpp) as tests labelled "suite": int32 sum,
#                        int64 max, float sum and float max (exactly summable inputs), every
#                        full-array variant, validated on the GPU
#   HUGE <variants>      a run of 2^31 + 3 int32 (label "huge", one at a time) of the variants
#                        named: about 16 GiB of device memory (input and output) and up to
#                        32 GiB of host memory (the input, one CPU reference per kind of output,
#                        inclusive or exclusive, and one downloaded output: 3 or 4 x 8 GiB)
# And for a chapter whose variants are not scans of one array on one GPU:
#   OWN_TABLE            the tour calls chNN::tour_table(options, device), which prints the
#                        chapter's own table, instead of listing chNN::Chapter::variants<T, Op>()
#   NO_TOUR              not in the tour (chapter 11: its array spans several GPUs)
#   LIBRARIES <targets>  more libraries the chapter's targets link (chapter 11: NCCL)
#   SOURCES <files>      more .cu files of the folder in the variant library, compiled side by
#                        side (chapter 12: its kernels, so that the chapter builds in parallel)
function(add_chapter folder)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SUITE;OWN_TABLE;NO_TOUR" "HUGE" "LIBRARIES;SOURCES")
  if(NOT folder MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "add_chapter: '${folder}' is not a chapter folder name like 03_hillis_steele")
  endif()
  set(number "${CMAKE_MATCH_1}")
  set(dir "${PROJECT_SOURCE_DIR}/chapters/${folder}")
  set(label "chapter${number}")

  list(TRANSFORM arg_SOURCES PREPEND "${dir}/")
  add_library(${folder}_variants STATIC "${dir}/variants.cu" ${arg_SOURCES})
  target_link_libraries(${folder}_variants PUBLIC scan_gallery_harness ${arg_LIBRARIES})

  add_executable(${folder} "${dir}/main.cu")
  target_link_libraries(${folder} PRIVATE ${folder}_variants)

  add_executable(${folder}_tests "${dir}/test.cu")
  target_link_libraries(${folder}_tests PRIVATE ${folder}_variants scan_gallery_test_main)
  # Building one chapter (--target <NN_idea>) builds its tests too, so `ctest -L chapterNN`
  # right after it finds every test of the chapter built. With Ninja the tests are a file the
  # program's link step needs, so main.cu compiles side by side with the tests and the variants
  # (a target dependency held it back until the tests were linked: chapter 12's target took 63 s
  # on a 16-core H100 machine that way, 31 s this way).
  if(CMAKE_GENERATOR STREQUAL "Ninja")
    set_property(TARGET ${folder} APPEND PROPERTY LINK_DEPENDS "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${folder}_tests${CMAKE_EXECUTABLE_SUFFIX}")
  else()
    add_dependencies(${folder} ${folder}_tests)
  endif()

  add_test(NAME ${folder}.host COMMAND ${folder}_tests --part=host)
  set_tests_properties(${folder}.host PROPERTIES LABELS "${label}")
  add_test(NAME ${folder}.gpu COMMAND ${folder}_tests --part=gpu)
  set_tests_properties(${folder}.gpu PROPERTIES LABELS "${label};gpu" SKIP_RETURN_CODE 77)

  # The program itself: help, bad flags, no device, a size that cannot fit, a small run.
  set(program "$<TARGET_FILE:${folder}>")
  add_cli_test(${folder}.cli.help COMMAND ${program} --help EXIT 0 OUTPUT "usage:.*--variant" LABELS ${label})
  add_cli_test(${folder}.cli.unknown_flag COMMAND ${program} --bogus EXIT 2 OUTPUT "unknown flag '--bogus'" LABELS ${label})
  add_cli_test(${folder}.cli.bad_size COMMAND ${program} --n banana EXIT 2 OUTPUT "is not a size" LABELS ${label})
  add_cli_test(${folder}.cli.no_device COMMAND ${program} --n 1000 EXIT 3 OUTPUT "no CUDA device" LABELS ${label}
               ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")
  # --list and a --variant that matches nothing answer without a GPU
  add_cli_test(${folder}.cli.list COMMAND ${program} --list EXIT 0 OUTPUT "^[a-z0-9_]+" LABELS ${label}
               ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")
  add_cli_test(${folder}.cli.no_match COMMAND ${program} --variant no_such_variant EXIT 2
               OUTPUT "no variant matches 'no_such_variant' \\(run with --list" LABELS ${label} ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")
  add_cli_test(${folder}.cli.too_large COMMAND ${program} --n 2^40 EXIT 3 OUTPUT "needs [0-9.]+ GiB of device memory, but only"
               LABELS ${label} NEEDS_GPU)
  add_cli_test(${folder}.cli.small_run COMMAND ${program} --n 1000,2^16+1 --iters 3 --warmup 1 EXIT 0 OUTPUT " ok"
               LABELS ${label} NEEDS_GPU)

  if(arg_SUITE)
    # float too: the suite draws float sums as small integers, whose sums are exact (inputs.hpp)
    foreach(type_op "int32;sum" "int64;max" "float;sum" "float;max")
      list(GET type_op 0 type)
      list(GET type_op 1 op)
      add_cli_test(${folder}.suite.${type}_${op} COMMAND ${program} --n suite --no-timing --type ${type} --op ${op}
                   EXIT 0 OUTPUT "suite: [0-9]+ scans, 0 failed" LABELS "${label};suite" NEEDS_GPU)
      set_tests_properties(${folder}.suite.${type}_${op} PROPERTIES TIMEOUT 900)
    endforeach()
  endif()
  if(arg_HUGE)
    add_cli_test(${folder}.huge COMMAND ${program} --n 2^31+3 --iters 2 --warmup 1 --variant ${arg_HUGE} EXIT 0 OUTPUT " ok"
                 LABELS "${label};huge" NEEDS_GPU NEEDS_MEMORY)
    set_tests_properties(${folder}.huge PROPERTIES RESOURCE_LOCK device_memory TIMEOUT 900)
  endif()

  if(NOT arg_NO_TOUR)
    set_property(GLOBAL APPEND PROPERTY SCAN_GALLERY_CHAPTERS ${folder})
  endif()
  if(arg_OWN_TABLE)
    set_property(GLOBAL APPEND PROPERTY SCAN_GALLERY_OWN_TABLE_CHAPTERS ${folder})
  endif()
endfunction()

# ---- add_tour ----------------------------------------------------------------------------
# The tour runs every chapter's variants. Its list of chapters is generated from the
# add_chapter calls, so a new chapter joins the tour by being added.
function(add_tour)
  get_property(chapters GLOBAL PROPERTY SCAN_GALLERY_CHAPTERS)
  get_property(own_table_chapters GLOBAL PROPERTY SCAN_GALLERY_OWN_TABLE_CHAPTERS)
  set(includes "")
  set(entries "")
  set(own_tables "")
  set(own_table_names "")
  set(libraries "")
  foreach(folder IN LISTS chapters)
    string(SUBSTRING "${folder}" 0 2 number)
    string(APPEND includes "#include \"${folder}/variants.cuh\"\n")
    if(folder IN_LIST own_table_chapters)
      string(APPEND own_tables "  all_valid = ch${number}::tour_table(options, device) && all_valid;\n")
      string(APPEND own_table_names "  for (const std::string& name : ch${number}::tour_table_names(options)) names.push_back(name);\n")
    else()
      string(APPEND entries "  append(all, labelled(ch${number}::Chapter::variants<T, Op>(), \"${number} \"));\n")
    endif()
    list(APPEND libraries ${folder}_variants)
  endforeach()
  set(registry "${PROJECT_BINARY_DIR}/generated/tour_chapters.cuh")
  file(CONFIGURE OUTPUT "${registry}" CONTENT [=[
// Generated by add_tour() from the add_chapter() calls in CMakeLists.txt: do not edit.
#pragma once
#include "common/bench.cuh"
#include "common/program.cuh"
@includes@
namespace tour {
template <typename T, typename Op>
void append(std::vector<sg::LabelledVariant<T, Op>>& all, const std::vector<sg::LabelledVariant<T, Op>>& more) {
  all.insert(all.end(), more.begin(), more.end());
}
template <typename T, typename Op>
std::vector<sg::LabelledVariant<T, Op>> all_variants() {
  using sg::labelled;
  std::vector<sg::LabelledVariant<T, Op>> all;
@entries@  return all;
}
// The chapters with a table of their own (add_chapter(... OWN_TABLE)), after the scans' table.
inline bool own_tables(const sg::Options& options, const sg::DeviceInfo& device) {
  bool all_valid = true;
@own_tables@  return all_valid;
}
// Every name --variant selects from: the scans' labels, then the own tables' names.
inline std::vector<std::string> variant_names(const sg::Options& options) {
  std::vector<std::string> names;
  sg::with_type_and_op(options, [&](auto element, auto op) {
    for (const auto& v : all_variants<decltype(element), decltype(op)>()) names.push_back(v.label);
    return true;
  });
@own_table_names@  return names;
}
}  // namespace tour
]=] @ONLY)

  add_executable(tour "${PROJECT_SOURCE_DIR}/chapters/tour.cu")
  target_include_directories(tour PRIVATE "${PROJECT_BINARY_DIR}/generated")
  target_link_libraries(tour PRIVATE ${libraries})
  add_custom_target(run_tour COMMAND tour DEPENDS tour USES_TERMINAL COMMENT "The Scan Gallery tour")
  add_cli_test(tour.cli.unknown_flag COMMAND $<TARGET_FILE:tour> --bogus EXIT 2 OUTPUT "unknown flag" LABELS tour)
  add_cli_test(tour.cli.list COMMAND $<TARGET_FILE:tour> --list EXIT 0 OUTPUT "^00 .*10 cpu/loop" LABELS tour ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")
  add_cli_test(tour.cli.no_match COMMAND $<TARGET_FILE:tour> --variant no_such_variant EXIT 2 OUTPUT "no variant matches 'no_such_variant'"
               LABELS tour ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")

  # The plots (common/plots.sh): every chapter's program run with --csv, then drawn.
  add_custom_target(plots COMMAND ${CMAKE_COMMAND} -E env BUILD_DIR=${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/common/plots.sh
                    DEPENDS ${chapters} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} USES_TERMINAL
                    COMMENT "Scan Gallery plots: every chapter against a copy, on this GPU")
  add_cli_test(tour.cli.small_run COMMAND $<TARGET_FILE:tour> --n 1000 --iters 2 --warmup 1 EXIT 0 OUTPUT " ok" LABELS tour NEEDS_GPU)
endfunction()

# ---- NCCL (chapter 11) -------------------------------------------------------------------
# A system install (NCCL_ROOT, or next to the CUDA Toolkit), or the nvidia-nccl Python wheel
# (pip install nvidia-nccl-cu13; PyTorch brings it): its nvidia/nccl folder holds include/ and
# lib/. Sets SCAN_GALLERY_NCCL_FOUND and the imported target scan_gallery_nccl.
option(SCAN_GALLERY_NCCL "look for NCCL and build chapter 11 where it is found" ON)
function(find_scan_gallery_nccl)
  if(NOT SCAN_GALLERY_NCCL)
    set(SCAN_GALLERY_NCCL_FOUND FALSE PARENT_SCOPE)
    message(STATUS "Scan Gallery: SCAN_GALLERY_NCCL is OFF, chapter 11 (scan across GPUs) is skipped")
    return()
  endif()
  set(hints "${NCCL_ROOT}" "$ENV{NCCL_ROOT}" "${CUDAToolkit_LIBRARY_ROOT}")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import nvidia.nccl as m; print(list(m.__path__)[0])"
                    OUTPUT_VARIABLE wheel RESULT_VARIABLE status ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(status EQUAL 0)
      list(APPEND hints "${wheel}")
    endif()
  endif()
  file(GLOB wheels /opt/*/.venv/lib/python3*/site-packages/nvidia/nccl /usr/local/lib/python3*/dist-packages/nvidia/nccl
       /usr/lib/python3/dist-packages/nvidia/nccl)
  list(APPEND hints ${wheels})
  find_path(SCAN_GALLERY_NCCL_INCLUDE_DIR nccl.h HINTS ${hints} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(SCAN_GALLERY_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${hints} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  if(SCAN_GALLERY_NCCL_INCLUDE_DIR AND SCAN_GALLERY_NCCL_LIBRARY)
    add_library(scan_gallery_nccl INTERFACE)
    target_include_directories(scan_gallery_nccl INTERFACE "${SCAN_GALLERY_NCCL_INCLUDE_DIR}")
    target_link_libraries(scan_gallery_nccl INTERFACE "${SCAN_GALLERY_NCCL_LIBRARY}")
    set(SCAN_GALLERY_NCCL_FOUND TRUE PARENT_SCOPE)
    message(STATUS "Scan Gallery: NCCL found (${SCAN_GALLERY_NCCL_LIBRARY}): chapter 11 is built")
  else()
    set(SCAN_GALLERY_NCCL_FOUND FALSE PARENT_SCOPE)
    message(STATUS "Scan Gallery: NCCL not found, chapter 11 (scan across GPUs) is skipped; every other chapter builds. "
                   "Install NCCL, or pip install nvidia-nccl-cu13, or pass -DNCCL_ROOT=<folder with include/nccl.h and lib/>")
  endif()
endfunction()
