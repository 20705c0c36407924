// Chapter 02 tests: the launch counts and traffic models on the host; every variant against
// the CPU reference on the GPU, with extra sizes around powers of two (the padding edges).
#include "02_global_memory_scan/blelloch_global.cuh"
#include "02_global_memory_scan/grid.cuh"
#include "02_global_memory_scan/model.hpp"
#include "02_global_memory_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <set>

namespace {

constexpr std::size_t kMi = std::size_t{1} << 20;

double copy_ratio(double bytes, std::size_t n, std::size_t e) { return bytes / sg::copy_bytes(n, e); }

// Brute force for the Blelloch level model: the distinct 32-byte sectors a level touches,
// found by listing every element it reads and writes.
struct SectorCount {
  std::set<std::size_t> read, written;
  double bytes() const { return ch02::kSectorBytes * static_cast<double>(read.size() + written.size()); }
};

SectorCount count_level_sectors(std::size_t padded, int level, std::size_t e, bool down) {
  SectorCount sectors;
  const std::size_t stride = std::size_t{1} << level;
  for (std::size_t k = 0; k < (padded >> (level + 1)); ++k) {
    const std::size_t right = ((k + 1) << (level + 1)) - 1, left = right - stride;
    sectors.read.insert(left * e / 32);
    sectors.read.insert(right * e / 32);
    sectors.written.insert(right * e / 32);
    if (down) sectors.written.insert(left * e / 32);
  }
  return sectors;
}

}  // namespace

TEST_CASE_TEMPLATE("02: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch02::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("02: launch counts") {
  using namespace ch02;
  CHECK(ceil_log2(1) == 0);
  CHECK(ceil_log2(2) == 1);
  CHECK(ceil_log2(3) == 2);
  CHECK(ceil_log2(4) == 2);
  CHECK(ceil_log2((std::size_t{1} << 40) + 1) == 41);

  // naive: one launch per step d = 1, 2, 4, ... < n, and one for n = 1 (it still writes out)
  CHECK(hillis_steele_launches(0) == 0);
  CHECK(hillis_steele_launches(1) == 1);
  CHECK(hillis_steele_launches(2) == 1);
  CHECK(hillis_steele_launches(3) == 2);
  CHECK(hillis_steele_launches(256) == 8);
  CHECK(hillis_steele_launches(257) == 9);
  CHECK(hillis_steele_launches(std::size_t{1} << 26) == 26);

  // Blelloch: padded to a power of two >= 2; pad + L up + L down + final
  CHECK(blelloch_padded_size(1) == 2);
  CHECK(blelloch_padded_size(2) == 2);
  CHECK(blelloch_padded_size(3) == 4);
  CHECK(blelloch_padded_size(256) == 256);
  CHECK(blelloch_padded_size(257) == 512);
  CHECK(blelloch_padded_size((std::size_t{1} << 32) + 1) == std::size_t{1} << 33);
  CHECK(blelloch_launches(0) == 0);
  CHECK(blelloch_launches(1) == 4);
  CHECK(blelloch_launches(std::size_t{1} << 26) == 54);
  CHECK(blelloch_launches((std::size_t{1} << 26) + 1) == 56);

  CHECK(launches_of("hillis_steele/exclusive", 1000) == 10);
  CHECK(launches_of("blelloch/inclusive", 1000) == 22);
  CHECK(launches_of("blelloch_remapped/exclusive", 1000) == 22);
}

TEST_CASE("02: the remapped grid has one thread per node, in whole warps") {
  using ch02::ThreadPerNode;
  CHECK(ThreadPerNode::block(1) == 32);
  CHECK(ThreadPerNode::block(33) == 64);
  CHECK(ThreadPerNode::block(200) == 224);
  CHECK(ThreadPerNode::block(256) == 256);
  CHECK(ThreadPerNode::block(std::size_t{1} << 30) == 256);
  CHECK(ThreadPerNode::threads(1024, 8) == 8);
  CHECK(ch02::ThreadPerElement::threads(1024, 8) == 1024);
}

TEST_CASE("02: the Blelloch level model counts the sectors each level touches") {
  const std::size_t padded = std::size_t{1} << 12;
  for (std::size_t e : {std::size_t{4}, std::size_t{8}}) {
    for (int level = 0; level < 12; ++level) {
      INFO("element bytes ", e, ", level ", level);
      CHECK(ch02::up_sweep_level_bytes(padded, level, e) == count_level_sectors(padded, level, e, false).bytes());
      CHECK(ch02::down_sweep_level_bytes(padded, level, e) == count_level_sectors(padded, level, e, true).bytes());
    }
  }
  // int32: levels 0-2 (nodes closer than a sector) read and write the whole array; from
  // level 3 on each level moves half the bytes of the one below it
  for (int level = 0; level < 3; ++level) CHECK(ch02::up_sweep_level_bytes(padded, level, 4) == 2.0 * padded * 4);
  for (int level = 3; level < 11; ++level)
    CHECK(ch02::up_sweep_level_bytes(padded, level + 1, 4) == ch02::up_sweep_level_bytes(padded, level, 4) / 2);
}

TEST_CASE("02: the naive model pays a second read only when x[i - d] is too far back for L2") {
  using namespace ch02;
  // small n: every step reads x[i] and writes y[i], the x[i - d] reads hit L2
  CHECK(hillis_steele_bytes(1000, 4) == 10 * 2.0 * 1000 * 4);
  CHECK(hillis_steele_bytes(1, 4) == 2.0 * 4);
  CHECK(hillis_steele_bytes(0, 4) == 0.0);
  // n = 2^26 int32: the steps d = 2^23, 2^24, 2^25 (32, 64, 128 MiB back) read from DRAM again
  const std::size_t n = std::size_t{1} << 26;
  const double expected = 26 * 2.0 * n * 4 + double(3 * n - (7 * n / 8)) * 4;
  CHECK(hillis_steele_bytes(n, 4) == expected);
  CHECK(4.0 * (n / 16) <= kL2ReuseBytes);    // d = 2^22 is 16 MiB back: still an L2 hit
  CHECK(4.0 * (n / 8) > kL2ReuseBytes);      // d = 2^23: a miss
}

TEST_CASE("02: the predictions the README quotes (n = 2^26 and 2^26 + 1, int32 and int64)") {
  using namespace ch02;
  const std::size_t n = std::size_t{1} << 26;
  CHECK(copy_ratio(hillis_steele_bytes(n, 4), n, 4) == doctest::Approx(27.0625));
  CHECK(copy_ratio(blelloch_exclusive_bytes(n, 4), n, 4) == doctest::Approx(11.5).epsilon(1e-6));
  CHECK(copy_ratio(blelloch_inclusive_bytes(n, 4), n, 4) == doctest::Approx(12.0).epsilon(1e-6));
  CHECK(copy_ratio(hillis_steele_bytes(n + 1, 4), n + 1, 4) == doctest::Approx(28.06).epsilon(1e-3));
  CHECK(copy_ratio(blelloch_exclusive_bytes(n + 1, 4), n + 1, 4) == doctest::Approx(21.5).epsilon(1e-3));
  CHECK(copy_ratio(blelloch_inclusive_bytes(n + 1, 4), n + 1, 4) == doctest::Approx(22.0).epsilon(1e-3));
  CHECK(copy_ratio(hillis_steele_bytes(n, 8), n, 8) == doctest::Approx(27.53).epsilon(1e-3));
  CHECK(copy_ratio(blelloch_exclusive_bytes(n, 8), n, 8) == doctest::Approx(9.5).epsilon(1e-6));
  // just above a power of two, padding nearly doubles the Blelloch traffic
  const double padding_cost = blelloch_exclusive_bytes(kMi + 1, 4) / blelloch_exclusive_bytes(kMi, 4);
  CHECK(padding_cost > 1.8);
  CHECK(padding_cost < 2.0);
}

// ---- GPU -------------------------------------------------------------------------------------

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("02: every variant matches the CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch02::Chapter, typename E::type, typename E::op>(ch02::kThreads);
  }

  // Sizes 2^k - 1, 2^k, 2^k + 1: the padded tree is exactly full, or N = 2n - 2 with a
  // single real element in its right half. One-hot inputs put the only non-identity value
  // on either side of the padding edge and on the last element.
  TEST_CASE_TEMPLATE("02: around powers of two, where the Blelloch padding changes", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    using Op = typename E::op;
    std::vector<std::size_t> sizes;
    for (int k : {1, 2, 3, 5, 8, 9, 12, 16, 20}) {
      const std::size_t p = std::size_t{1} << k;
      sizes.insert(sizes.end(), {p - 1, p, p + 1});
    }
    for (const sg::Variant<T, Op>& variant : ch02::Chapter::variants<T, Op>()) {
      sg_test::check_random(variant, sizes);
      for (int k : {5, 8, 12}) {
        const std::size_t p = std::size_t{1} << k;
        sg_test::check_one_hot(variant, p + 1, {0, p - 1, p});
        sg_test::check_one_hot(variant, p - 1, {0, p / 2 - 1, p / 2, p - 2});
      }
    }
  }
}
