// Chapter 10 - stream compaction: the CPU versions, map/scan/scatter, the fused pass, CUB and
// Thrust, against a copy of n elements, for each --keep fraction.
//
// Run: ./build/bin/10_stream_compaction --n 2^26,2^28 --keep 0.01,0.5,0.99
//      ./build/bin/10_stream_compaction --rule nonzero,greater --type float --n 2^24
//      ./build/bin/10_stream_compaction --n suite --no-timing --repeat 5 --variant fused/ballot   (stress)
#include "10_stream_compaction/variants.cuh"
#include "common/program.cuh"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<double> keep = {0.01, 0.5, 0.99};
  std::vector<ch10::Rule> rules = {ch10::Rule::kGreater};
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 20, std::size_t{1} << 26};
  defaults.extra_flags = {
      {"--keep", "LIST", "fractions of the elements the predicate keeps (default 0.01,0.5,0.99)",
       [&](const std::string& value) {
         keep.clear();
         for (const std::string& item : sg::detail::split_list(value, "--keep")) keep.push_back(sg::detail::parse_fraction(item, "--keep"));
       }},
      {"--rule", "LIST", "greater (x > t, t chosen for --keep) and/or nonzero (x != 0) (default greater)",
       [&](const std::string& value) {
         rules.clear();
         for (const std::string& item : sg::detail::split_list(value, "--rule"))
           rules.push_back(sg::detail::parse_choice(item, "--rule", {"greater", "nonzero"}) == "greater" ? ch10::Rule::kGreater
                                                                                                         : ch10::Rule::kNonZero);
       }},
  };
  // The shared flags this program has no use for: naming one is an error, not a silent no-op.
  defaults.refused_flags = {{"--op", "chapter 10 compacts; it has no operator (its predicates are --rule)"}};
  defaults.variant_names = [](const sg::Options& options) { return ch10::variant_names(options, ""); };
  return sg::program_main(argc, argv, std::string(ch10::Chapter::id) + ": " + ch10::Chapter::title, defaults,
                          [&](const sg::Options& options, const sg::DeviceInfo& device) {
                            return ch10::run_program(options, device, keep, rules);
                          });
}
