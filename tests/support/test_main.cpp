// tests/support/test_main.cpp - the doctest main shared by every test executable.
//
// Test cases that need a GPU live in TEST_SUITE("gpu"). CTest runs each executable twice:
//
//   <exe> --part=host   everything outside the "gpu" suite; runs everywhere
//   <exe> --part=gpu    only the "gpu" suite; without a CUDA device it prints why and exits
//                       with 77, which CTest reports as "Skipped", never as "Passed"
//
//   <exe> --part=multi_gpu  only the "multi_gpu" suite (chapter 11); with fewer than two
//                       CUDA devices it prints why and exits with 77 ("Skipped")
//
// Run by hand with no --part, it runs both parts and says so when it skips the GPU cases.
// The inputs' seed is fresh every run and printed; SG_TEST_SEED=<n> repeats a run.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "common/device_info.cuh"
#include "tests/support/seed.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string part = "all";
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--part=", 7) == 0) part = argv[i] + 7;
    else doctest_args.push_back(argv[i]);
  }
  if (part != "all" && part != "host" && part != "gpu" && part != "multi_gpu") {
    std::fprintf(stderr, "error: --part must be host, gpu, multi_gpu or all, not '%s'\n", part.c_str());
    return 2;
  }

  doctest::Context context;
  context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
  if (part == "host") context.addFilter("test-suite-exclude", "gpu,multi_gpu");
  if (part == "gpu") context.addFilter("test-suite", "gpu");
  if (part == "multi_gpu") context.addFilter("test-suite", "multi_gpu");

  const std::string no_device = sg::no_device_reason();
  if (!no_device.empty() && part != "host") {
    if (part == "gpu" || part == "multi_gpu") {
      std::printf("SKIPPED (no CUDA device): these test cases need a GPU; %s\n", no_device.c_str());
      return 77;
    }
    std::printf("note: skipping the GPU test cases: %s\n", no_device.c_str());
    context.addFilter("test-suite-exclude", "gpu,multi_gpu");
  }
  int devices = 0;
  if (no_device.empty() && cudaGetDeviceCount(&devices) == cudaSuccess && devices < 2 && part != "host") {
    if (part == "multi_gpu") {
      std::printf("SKIPPED (fewer than 2 CUDA devices): these test cases spread one array over several GPUs; %d found\n", devices);
      return 77;
    }
    std::printf("note: skipping the multi-GPU test cases: %d CUDA device found\n", devices);
    context.addFilter("test-suite-exclude", "multi_gpu");
  }
  if (part != "host") std::printf("input seed %llu (repeat with SG_TEST_SEED=%llu)\n",
                                  static_cast<unsigned long long>(sg_test::seed()),
                                  static_cast<unsigned long long>(sg_test::seed()));
  return context.run();
}
