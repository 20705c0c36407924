// common/variant.cuh - the uniform chapter API.
//
// Every variant of every chapter is launched the same way:
//
//     void launch(const T* d_in, T* d_out, std::size_t n, cudaStream_t stream);
//
// device input, device output, element count, stream; asynchronous, no allocation (take
// temporary storage from sg::scratch_bytes and declare its size in `scratch_bytes`). A
// Variant pairs the launcher with what it computes and the bytes its model says it moves,
// so the chapter program, the tests and the tour can run, check and time any variant
// without knowing anything else about it.
//
// Each chapter declares itself in variants.cuh and lists its variants in variants.cu:
//
//     namespace ch03 {
//     SG_CHAPTER("03_hillis_steele", "Hillis-Steele (Kogge-Stone) block scans, tile-local");
//     }
//     template <typename T, typename Op>
//     std::vector<sg::Variant<T, Op>> ch03::Chapter::variants() { return {...}; }
#pragma once

#include "common/operators.hpp"
#include "common/reference.hpp"
#include "common/traffic_model.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sg {

template <typename T>
using Launcher = void (*)(const T* in, T* out, std::size_t n, cudaStream_t stream);

template <typename T, typename Op>
struct Variant {
  std::string name;
  Launcher<T> launch = nullptr;
  Computes computes = Computes::InclusiveScan;
  TrafficModel model_bytes = model::read_write;
  std::size_t tile = 0;                                  // > 0: tile-local, restarts every `tile` elements
  std::size_t (*scratch_bytes)(std::size_t n) = nullptr;  // device scratch the launcher takes, if any
  std::size_t max_n = std::numeric_limits<std::size_t>::max();

  std::size_t scratch_for(std::size_t n) const { return scratch_bytes != nullptr ? scratch_bytes(n) : 0; }
};

}  // namespace sg

// A chapter: its folder name, a one-line title, and its variant list for every element
// type and operator (defined in the chapter's variants.cu).
#define SG_CHAPTER(chapter_id, chapter_title)                 \
  struct Chapter {                                            \
    static constexpr const char* id = chapter_id;             \
    static constexpr const char* title = chapter_title;       \
    template <typename T, typename Op>                        \
    static std::vector<sg::Variant<T, Op>> variants();        \
  }

// Instantiates a chapter's variant list for every element type and operator the programs
// and tests use (--type int32|int64|float, --op sum|max).
#define SG_INSTANTIATE_VARIANTS(Chapter)                                                          \
  template std::vector<sg::Variant<std::int32_t, sg::Sum>> Chapter::variants<std::int32_t, sg::Sum>(); \
  template std::vector<sg::Variant<std::int64_t, sg::Sum>> Chapter::variants<std::int64_t, sg::Sum>(); \
  template std::vector<sg::Variant<float, sg::Sum>> Chapter::variants<float, sg::Sum>();               \
  template std::vector<sg::Variant<std::int32_t, sg::Max>> Chapter::variants<std::int32_t, sg::Max>(); \
  template std::vector<sg::Variant<std::int64_t, sg::Max>> Chapter::variants<std::int64_t, sg::Max>(); \
  template std::vector<sg::Variant<float, sg::Max>> Chapter::variants<float, sg::Max>();

// The full-array chapters (06 on) are also instantiated with the non-commutative operator of
// operators.hpp, which their tests use to show that every combination keeps the input's order.
#define SG_INSTANTIATE_NONCOMMUTATIVE(Chapter) \
  template std::vector<sg::Variant<std::int64_t, sg::AffineCompose>> Chapter::variants<std::int64_t, sg::AffineCompose>();
