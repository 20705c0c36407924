// Host tests: seeded inputs, one-hot inputs, poison, and the timing statistics.
#include "common/inputs.hpp"
#include "common/timer.cuh"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

TEST_CASE("inputs: the same seed gives the same values, at any size") {
  const std::vector<int> a = sg::random_input<int>(1000, 7);
  const std::vector<int> b = sg::random_input<int>(5000, 7);
  CHECK(std::equal(a.begin(), a.end(), b.begin()));
  CHECK(a != sg::random_input<int>(1000, 8));
}

TEST_CASE("inputs: sum inputs are small, signed and never constant") {
  const std::vector<int> values = sg::random_input<int>(100000, 1);
  CHECK(*std::min_element(values.begin(), values.end()) == -100);
  CHECK(*std::max_element(values.begin(), values.end()) == 100);
  CHECK(std::set<int>(values.begin(), values.end()).size() == 201);
  const std::vector<float> floats = sg::random_input<float>(100000, 1);
  CHECK(*std::min_element(floats.begin(), floats.end()) >= -1.0f);
  CHECK(*std::max_element(floats.begin(), floats.end()) < 1.0f);
}

TEST_CASE("inputs: max inputs keep raising the running maximum") {
  const std::vector<int> values = sg::random_input<int, sg::Max>(1 << 20, 3);
  int running = values[0], changes = 0;
  for (int v : values)
    if (v > running) running = v, ++changes;
  CHECK(changes > 1000);  // plain noise would stop changing after a few hundred elements
}

TEST_CASE("inputs: one-hot is the identity everywhere but one position") {
  const std::vector<int> sum = sg::one_hot_input<int>(10, 4);
  CHECK(std::count(sum.begin(), sum.end(), 0) == 9);
  CHECK(sum[4] == 7);
  const std::vector<int> max = sg::one_hot_input<int, sg::Max>(10, 9);
  CHECK(max[0] == std::numeric_limits<int>::lowest());
  CHECK(max[9] == 7);
  CHECK(sg::one_hot_input<int>(3, 5) == std::vector<int>(3, 0));  // out of range: no hot element
}

TEST_CASE("inputs: the integer poison is far outside any input or result") {
  CHECK(sg::poison_value<std::int32_t>() == static_cast<std::int32_t>(0xA5A5A5A5u));
  CHECK(sg::poison_value<std::int32_t>() < -1000000000);
}

TEST_CASE("timing: median and rotation") {
  CHECK(sg::median_of({}) == 0.0);
  CHECK(sg::median_of({3.0, 1.0, 2.0}) == 2.0);
  CHECK(sg::median_of({4.0, 1.0, 3.0, 2.0}) == 2.5);
  const std::size_t l2 = 50u << 20;
  CHECK(sg::rotation_sets(std::size_t{1} << 30, l2) == 1);    // far larger than L2: no rotation
  CHECK(sg::rotation_sets(std::size_t{8} << 20, l2) == 19);   // 3 x 50 MiB / 8 MiB, rounded up
  CHECK(sg::rotation_sets(1024, l2) == 32);                   // capped
  CHECK(sg::rotation_sets(0, l2) == 1);
}

TEST_CASE("timing: host timer reports median <= max and min <= median") {
  int calls = 0;
  const sg::Timing t = sg::time_host([&] { ++calls; }, 2, 5);
  CHECK(calls == 7);
  CHECK(t.runs == 5);
  CHECK(t.min_ms <= t.median_ms);
}
