// Chapter 11 - scan across GPUs: every variant over 1, 2, ... GPUs, against chapter 09's scan of
// the whole array on one GPU.
//
// Run: ./build/bin/11_multi_gpu_scan --gpus 1,2,4 --n 2^28,2^30,2^31,2^32
//      ./build/bin/11_multi_gpu_scan --gpus 2 --n 24G --iters 3 --warmup 1 --variant reduce_exchange_scan/inclusive
//      (24G int32: 192 GB of input and output, more than one H200 holds)
//      ./build/bin/11_multi_gpu_scan --gpus 2 --n 2^30 --variant reduce_exchange_scan/inclusive --timeline
#include "11_multi_gpu_scan/gpus.cuh"
#include "11_multi_gpu_scan/variants.cuh"
#include "common/program.cuh"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<int> gpu_counts;
  bool timeline = false;
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 26, std::size_t{1} << 30};
  defaults.iters = 20;
  defaults.extra_flags = {
      {"--gpus", "LIST", "how many GPUs to spread the array over, e.g. 1,2,4 (default: 1, 2, 4, ... and all of them)",
       [&](const std::string& value) {
         gpu_counts.clear();
         for (const std::string& item : sg::detail::split_list(value, "--gpus"))
           gpu_counts.push_back(sg::detail::parse_count(item, "--gpus", 1));
       }},
      {"--timeline", "", "after each timed row, the median run drawn per GPU: the phase before the exchange, the exchange, the phase after",
       [&](const std::string&) { timeline = true; }},
  };
  return sg::program_main(argc, argv, std::string(ch11::Chapter::id) + ": " + ch11::Chapter::title, sg::chapter_options<ch11::Chapter>(defaults),
                          [&](const sg::Options& options, const sg::DeviceInfo& device) {
                            if (gpu_counts.empty()) {
                              const int visible = ch11::visible_gpus();
                              for (int count = 1; count < visible; count *= 2) gpu_counts.push_back(count);
                              gpu_counts.push_back(visible);
                            }
                            return ch11::run_program(options, device, gpu_counts, timeline);
                          });
}
