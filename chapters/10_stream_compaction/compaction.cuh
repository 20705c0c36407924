// Chapter 10 - stream compaction: what scan is for.
//
// Where it sits: chapters 06-09 built ever faster scans; this chapter uses one. Compaction
// keeps the elements that pass a predicate, in their original order, packed at the front of
// the output, and says how many it kept:
//
//     in     3 0 7 0 0 4 1 0      keep x != 0
//     out    3 7 4 1              count 4
//
// Element i goes to out[number of kept elements before i]: an exclusive scan of the 0/1
// "kept" flags gives every survivor its place. That is the whole connection, and the three
// ways this chapter computes it:
//
//   cpu/...               the reference: one loop (and the same with a scan: the two CPU
//                         versions of Ge's CIS 565 project)
//   map_scan_scatter/...  the textbook pipeline (map_scan_scatter.cuh): a flags kernel, chapter
//                         09's scan of the flags, a scatter kernel. Three passes over memory.
//   fused/...             one pass (fused.cuh): every tile counts its survivors with warp
//                         ballots and learns where its survivors go with chapter 09's
//                         decoupled look-back, over counts instead of values.
//
// Model (bytes, s = element size, o = offset size, k = kept):
//   must move        read n + write k (+ the count):                s(n + k)
//   map/scan/scatter map: s n + o n; scan: 2 o n; scatter: s n + o n + s k
//                    = 2 s n + 4 o n + s k  -> with o = s and k = n/2: 6.5 n s, 3.25x copy
//   fused            s n + s k (+ a status word per tile)    -> with k = n/2: 1.5 n s, 0.75x copy
// "x copy" is against a copy of n elements (2 n s bytes), measured in the same run.
//
// The API. A compaction has two outputs, so its launcher differs from the scans' by one
// pointer and one argument:
//
//     void launch(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream);
//
// out[0, count) receives the survivors; nothing at or past out[count] is written.
// Run: ./build/bin/10_stream_compaction --n 2^26 --keep 0.01,0.5,0.99
#pragma once

#include "common/inputs.hpp"
#include "common/operators.hpp"

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace ch10 {

// ---- the predicate ------------------------------------------------------------------------
//
// The two predicates of the lesson as one small function object: "x != 0" (Ge's CIS 565
// project) and "x > threshold". Which one is a runtime choice, the same for every thread: the
// branch costs nothing next to the memory traffic, and one instantiation serves both.
enum class Rule { kNonZero, kGreater };

inline const char* rule_name(Rule rule) { return rule == Rule::kNonZero ? "x!=0" : "x>t"; }

template <typename T>
struct Keep {
  Rule rule = Rule::kGreater;
  T threshold = T(0);
  SG_HOST_DEVICE bool operator()(const T& x) const { return rule == Rule::kNonZero ? x != T(0) : x > threshold; }
};

// ---- inputs with a chosen fraction kept ----------------------------------------------------
//
// Values are whole numbers u in [0, R): R = 2^30 for integers, 2^24 for floats (scaled by
// 2^-24 into [0, 1), every value exact). Random and mostly distinct, so a survivor written to
// the wrong place, or two survivors swapped, shows as a wrong element.
//   x > t    keeps u > R - 1 - round(keep R): a fraction round(keep R) / R of the values
//   x != 0   each element is 0 with probability 1 - keep, else u + 1 (never 0)
// Both draw from the counter-based hash of inputs.hpp, on the host or the device alike.
template <typename T>
SG_HOST_DEVICE constexpr std::uint64_t value_range() {
  return std::is_floating_point_v<T> ? (std::uint64_t{1} << 24) : (std::uint64_t{1} << 30);
}

template <typename T>
SG_HOST_DEVICE T from_units(std::uint64_t u) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(static_cast<double>(u) * 0x1.0p-24);
  else return static_cast<T>(u);
}

template <typename T>
Keep<T> keep_fraction(Rule rule, double keep) {
  const std::uint64_t range = value_range<T>();
  const auto kept_units = static_cast<std::uint64_t>(std::llround(keep * static_cast<double>(range)));
  Keep<T> predicate;
  predicate.rule = rule;
  // kept_units = range: every u > -1, i.e. every value (integers and floats alike are >= 0)
  predicate.threshold = kept_units >= range ? T(-1) : from_units<T>(range - 1 - kept_units);
  return predicate;
}

template <typename T>
SG_HOST_DEVICE T compaction_value(std::uint64_t seed, std::size_t index, Rule rule, double keep) {
  const std::uint64_t bits = sg::hash64(seed * 0x2545F4914F6CDD1Dull ^ sg::hash64(index));
  const std::uint64_t u = bits % value_range<T>();
  if (rule == Rule::kGreater) return from_units<T>(u);
  const double coin = static_cast<double>(sg::hash64(bits) >> 11) * 0x1.0p-53;  // [0, 1)
  return coin < keep ? from_units<T>(u % (value_range<T>() - 1) + 1) : T(0);
}

template <typename T>
std::vector<T> compaction_input(std::size_t n, std::uint64_t seed, Rule rule, double keep) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = compaction_value<T>(seed, i, rule, keep);
  return values;
}

// ---- the CPU versions (as in Ge's CIS 565 project) ------------------------------------------

// The reference: one pass, one comparison per element. Returns the count.
template <typename T, typename Predicate>
std::size_t cpu_compact_loop(const T* in, T* out, std::size_t n, Predicate keep) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (keep(in[i])) out[kept++] = in[i];
  return kept;
}

// The same result the way the GPU pipeline gets it, step by step: flags, their exclusive
// scan, a scatter. offsets must hold n entries.
template <typename T, typename Predicate>
std::size_t cpu_compact_with_scan(const T* in, T* out, std::size_t* offsets, std::size_t n, Predicate keep) {
  std::size_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {  // map and exclusive scan in one loop
    offsets[i] = running;
    running += keep(in[i]) ? 1 : 0;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (keep(in[i])) out[offsets[i]] = in[i];
  return running;
}

// What every GPU result is checked against: exactly the kept elements, in order.
template <typename T, typename Predicate>
std::vector<T> reference_compaction(const std::vector<T>& in, Predicate keep) {
  std::vector<T> survivors(in.size());
  survivors.resize(cpu_compact_loop(in.data(), survivors.data(), in.size(), keep));
  return survivors;
}

// ---- offsets: 32 bits while n fits in an int, 64 beyond --------------------------------------
//
// A survivor's position can be as large as n - 1, and the count as large as n. 32-bit offsets
// halve the pipeline's flag and offset traffic and the fused pass's status words, so both
// use them up to n = 2^31 - 1 (as CUB does: int offsets while n fits), and 64-bit ones above.
inline constexpr std::size_t kMaxNarrowOffsets = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());

inline bool wide_offsets(std::size_t n) { return n > kMaxNarrowOffsets; }
inline std::size_t offset_bytes(std::size_t n) { return wide_offsets(n) ? 8 : 4; }

// ---- the variant API ------------------------------------------------------------------------

template <typename T>
using CompactLauncher = void (*)(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream);

// Bytes a variant moves for n elements of `element_bytes`, k of them kept.
using CompactionModel = double (*)(std::size_t n, std::size_t kept, std::size_t element_bytes);

namespace model {
inline double must_move(std::size_t n, std::size_t kept, std::size_t s) {
  return static_cast<double>(s) * static_cast<double>(n + kept) + sizeof(unsigned long long);
}
inline double fused(std::size_t n, std::size_t kept, std::size_t s) { return must_move(n, kept, s); }
inline double map_scan_scatter(std::size_t n, std::size_t kept, std::size_t s) {
  const double o = static_cast<double>(offset_bytes(n));
  const double nn = static_cast<double>(n);
  return 2.0 * static_cast<double>(s) * nn + 4.0 * o * nn + static_cast<double>(s) * static_cast<double>(kept) +
         sizeof(unsigned long long);
}
inline double cpu_with_scan(std::size_t n, std::size_t kept, std::size_t s) {  // in, offsets (written, read), out
  return static_cast<double>(n) * (2.0 * static_cast<double>(s) + 2.0 * sizeof(std::size_t)) + static_cast<double>(kept * s);
}
}  // namespace model

template <typename T>
struct Compactor {
  std::string name;
  CompactLauncher<T> launch = nullptr;
  CompactionModel model_bytes = model::fused;
  std::size_t (*scratch_bytes)(std::size_t n) = nullptr;  // device memory the launcher takes, if any
  std::size_t tile = 0;                                   // elements per tile (tests put one-hots on its boundaries)
  std::size_t max_n = std::numeric_limits<std::size_t>::max();  // above it the variant is not run ...
  std::string skipped_above{};                                   // ... and its row says this instead

  std::size_t scratch_for(std::size_t n) const { return scratch_bytes != nullptr ? scratch_bytes(n) : 0; }
  // "" where the variant runs at n; otherwise why not. The table and the tests ask this (the
  // suite's sizes stay below the limit).
  std::string skip_reason(std::size_t n) const { return n > max_n ? skipped_above : std::string(); }
};

}  // namespace ch10
