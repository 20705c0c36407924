// common/traffic_model.hpp - the bytes each algorithm must move, and what that predicts.
//
// A scan does one addition per element, about 0.125 operations per byte moved for int32;
// a GPU can do hundreds of operations in the time it moves one byte. So scan is bound by
// memory traffic, and the fastest possible scan is a device-to-device copy: read n
// elements, write n. Every variant carries a model of the bytes it moves through device
// memory; divided by the bytes of a copy it predicts the variant's time as a multiple of
// the copy's time:
//
//   copy, single-pass scan, tile-local block scan   read n + write n        2n   -> 1.0 x copy
//   reduction                                       read n                   n   -> 0.5 x copy
//   reduce-then-scan                                read n, read n + write n 3n  -> 1.5 x copy
//   scan-then-propagate                             (read n + write n) x 2   4n  -> 2.0 x copy
//
// The effective bandwidth of a variant is what it *must* move (what a copy of its input
// and output moves, whatever the algorithm does) over its time, so variants that move
// more bytes than necessary show lower effective bandwidth.
#pragma once

#include "common/reference.hpp"

#include <cstddef>

namespace sg {

// Bytes any implementation must move: read the input once, write the output once.
inline double must_move_bytes(Computes what, std::size_t n, std::size_t element_bytes) {
  const double input = static_cast<double>(n) * static_cast<double>(element_bytes);
  if (what == Computes::Reduce) return input + static_cast<double>(element_bytes);  // one result
  return 2.0 * input;
}

// The bytes a copy of n elements moves: the yardstick for predicted and measured ratios.
inline double copy_bytes(std::size_t n, std::size_t element_bytes) {
  return must_move_bytes(Computes::Copy, n, element_bytes);
}

// A model: bytes a variant moves for n elements of `element_bytes` each.
using TrafficModel = double (*)(std::size_t n, std::size_t element_bytes);

namespace model {
inline double read_write(std::size_t n, std::size_t e) { return 2.0 * static_cast<double>(n) * static_cast<double>(e); }
inline double read_only(std::size_t n, std::size_t e) { return static_cast<double>(n) * static_cast<double>(e) + static_cast<double>(e); }
inline double reduce_then_scan(std::size_t n, std::size_t e) { return 3.0 * static_cast<double>(n) * static_cast<double>(e); }
inline double scan_then_propagate(std::size_t n, std::size_t e) { return 4.0 * static_cast<double>(n) * static_cast<double>(e); }
}  // namespace model

// The model's prediction of time / copy time (1.0 = as fast as a copy).
inline double predicted_ratio(TrafficModel model_bytes, std::size_t n, std::size_t element_bytes) {
  const double copy = copy_bytes(n, element_bytes);
  return copy > 0 ? model_bytes(n, element_bytes) / copy : 0.0;
}

}  // namespace sg
