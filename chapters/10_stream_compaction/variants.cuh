// Chapter 10 - stream compaction: the chapter's declaration. Its variants are compactions
// (compaction.cuh: two outputs and a predicate), so the chapter runs its own table
// (table.cuh) and joins the tour through tour_table() rather than the scans' variant list.
#pragma once

#include "10_stream_compaction/compaction.cuh"
#include "common/device_info.cuh"
#include "common/flags.hpp"

#include <string>
#include <vector>

namespace ch10 {

struct Chapter {
  static constexpr const char* id = "10_stream_compaction";
  static constexpr const char* title = "stream compaction: map/scan/scatter against one fused pass with ballots and look-back";
  template <typename T>
  static std::vector<Compactor<T>> variants();  // int32, int64, float
};

// The chapter program's body: --type picks the element type; keep fractions and rules as given.
bool run_program(const sg::Options& options, const sg::DeviceInfo& device, const std::vector<double>& keep,
                 const std::vector<Rule>& rules);

// The tour's part: this chapter's table at keep 0.5 (x > t), rows prefixed "10 ".
bool tour_table(const sg::Options& options, const sg::DeviceInfo& device);
// The names --variant selects from (the compactions of --type and the CPU rows), each after `prefix`.
std::vector<std::string> variant_names(const sg::Options& options, const std::string& prefix);
inline std::vector<std::string> tour_table_names(const sg::Options& options) { return variant_names(options, "10 "); }

}  // namespace ch10
