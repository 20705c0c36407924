// Chapter 09 test helper: a scan that tags its status words with v4's epochs (tuned.cuh) stays
// correct across the epoch's wrap-around. Used by the tests of chapter 09 and of every chapter
// that leases v4's words (chapter 12).
#pragma once

#include "09_decoupled_lookback/tuned.cuh"
#include "tests/support/check_variant.cuh"

#include <string>

namespace ch09_test {

// Runs the chapter's int32-sum variant `inclusive` and its non-commutative variant `exclusive`
// on both sides of the wrap-around of their words' epochs (8-byte and 16-byte words).
template <typename Chapter>
void check_epoch_wraparound(const std::string& inclusive, const std::string& exclusive) {
  for (const auto& variant : Chapter::template variants<std::int32_t, sg::Sum>()) {
    if (variant.name != inclusive) continue;
    sg_test::check_repeated(variant, {100000, 3000000}, 1);  // leave words of several epochs behind
    ch09::last_epoch<8>() = ch09::kEpochLimit - 3;
    sg_test::check_repeated(variant, {3000000, 100000, 2999999}, 3);  // epochs limit-2, limit-1, then 1 (after a clear), 2, ...
    CHECK(ch09::last_epoch<8>() < 16);
  }
  for (const auto& variant : Chapter::template variants<std::int64_t, sg::AffineCompose>()) {
    if (variant.name != exclusive) continue;
    ch09::last_epoch<16>() = ch09::kEpochLimit - 2;
    sg_test::check_repeated(variant, {1500000, 77777}, 3);
    CHECK(ch09::last_epoch<16>() < 16);
  }
}

}  // namespace ch09_test
