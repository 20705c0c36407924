// Chapter 04 tests: every layout's exclusive and inclusive scan matches the CPU reference
// on the GPU; on the host, the offset function (and the famous macro it replaces), the
// layouts' address arithmetic, the sweeps themselves run in any thread order, and the
// bank-conflict claims the README makes.
#include "04_blelloch/bank_model.cuh"
#include "04_blelloch/blelloch.cuh"
#include "04_blelloch/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

using ch04::kLevels;
using ch04::kTile;
using ch04::nodes_at;

TEST_CASE_TEMPLATE("04: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch04::Chapter, typename E::type, typename E::op>();
  for (const auto& v : ch04::Chapter::variants<typename E::type, typename E::op>()) {
    INFO(v.name);
    CHECK(v.tile == static_cast<std::size_t>(kTile));  // one tile for all, so the rows compare layouts alone
    const bool models_a_copy = v.model_bytes == sg::model::read_write;  // tile-local: read n, write n
    CHECK(models_a_copy);
  }
}

// ---- the padding offset, and the macro it replaces ---------------------------------------

TEST_CASE("04: conflict_free_offset adds one cell per row of banks and one per row of rows") {
  using ch04::conflict_free_offset;
  for (int j = 0; j < 32; ++j) CHECK(conflict_free_offset(j, 5) == 0);
  CHECK(conflict_free_offset(32, 5) == 1);
  CHECK(conflict_free_offset(63, 5) == 1);
  CHECK(conflict_free_offset(64, 5) == 2);
  CHECK(conflict_free_offset(1023, 5) == 31);
  CHECK(conflict_free_offset(1024, 5) == 32 + 1);
  CHECK(conflict_free_offset(255, 4) == 15);  // 8-byte elements: rows of 16
  CHECK(conflict_free_offset(256, 4) == 16 + 1);
  CHECK(ch04::log2_elements_per_bank_row<std::int32_t>() == 5);
  CHECK(ch04::log2_elements_per_bank_row<float>() == 5);
  CHECK(ch04::log2_elements_per_bank_row<std::int64_t>() == 4);
}

namespace gems {
// GPU Gems 3 ch. 39's macro, as printed and copied far and wide. Never use it: the test
// below shows what it means. Its text is evaluated with stand-in types that keep C++'s
// own precedence and associativity, so nothing undefined ever runs.
#define GEMS_CONFLICT_FREE_OFFSET(n) ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))

// An expression that prints how it was parsed.
struct Parsed {
  std::string text;
};
Parsed operator>>(const Parsed& a, const Parsed& b) { return {"(" + a.text + " >> " + b.text + ")"}; }
Parsed operator+(const Parsed& a, const Parsed& b) { return {"(" + a.text + " + " + b.text + ")"}; }
Parsed operator*(int a, const Parsed& b) { return {"(" + std::to_string(a) + " * " + b.text + ")"}; }

// A 32-bit value shifted as the GPU's shr instruction does (PTX clamps shift counts to the
// register width, so x >> 32 or more is 0 for x >= 0). In C++ such a shift is undefined.
struct GpuInt {
  long long value;
};
GpuInt operator>>(GpuInt a, GpuInt b) { return {b.value >= 32 ? 0 : a.value >> b.value}; }
GpuInt operator+(GpuInt a, GpuInt b) { return {a.value + b.value}; }
GpuInt operator*(int a, GpuInt b) { return {a * b.value}; }
}  // namespace gems

TEST_CASE("04: the copied CONFLICT_FREE_OFFSET macro parses as n >> (NUM_BANKS + n) and pads nothing") {
  using gems::GpuInt;
  using gems::Parsed;
  {
    // '+' binds tighter than '>>', and '>>' groups left to right.
    const Parsed NUM_BANKS{"NUM_BANKS"}, LOG_NUM_BANKS{"LOG_NUM_BANKS"};
    CHECK(GEMS_CONFLICT_FREE_OFFSET(Parsed{"n"}).text == "((n >> (NUM_BANKS + n)) >> (2 * LOG_NUM_BANKS))");
  }
  // Evaluated as the GPU shifts, with the book's 16 banks or the 32 of GPUs since Fermi, it is
  // 0 for every index of the tile: the "padded" kernel silently keeps every conflict (and its
  // results stay right, which is why the bug survives copying). The intended offset is not 0.
  for (const int log_banks : {4, 5}) {
    const GpuInt NUM_BANKS{1 << log_banks}, LOG_NUM_BANKS{log_banks};
    int padded_cells = 0;
    for (int j = 0; j < kTile; ++j) {
      CHECK(GEMS_CONFLICT_FREE_OFFSET(GpuInt{j}).value == 0);
      if (ch04::conflict_free_offset(j, log_banks) != 0) ++padded_cells;
    }
    CHECK(padded_cells == kTile - (1 << log_banks));  // every element after the first row moves
  }
}
#undef GEMS_CONFLICT_FREE_OFFSET

// ---- the layouts' address arithmetic -----------------------------------------------------

// The cells of every stored node: levels 0 (the leaves) to kLevels - 1 (the root is never stored).
template <typename Layout>
std::vector<int> all_node_cells() {
  std::vector<int> cells;
  for (int level = 0; level < kLevels; ++level)
    for (int k = 0; k < nodes_at(level); ++k) cells.push_back(Layout::node(level, k));
  return cells;
}

template <typename Layout>
void check_cells_in_range() {
  for (int cell : all_node_cells<Layout>()) {
    REQUIRE(cell >= 0);
    REQUIRE(cell < Layout::kCells);
  }
  std::set<int> leaves;
  for (int j = 0; j < kTile; ++j) leaves.insert(Layout::node(0, j));
  CHECK(leaves.size() == static_cast<std::size_t>(kTile));  // every element has its own cell
}

// In place: a parent overwrites its right child, as in Blelloch's algorithm.
template <typename Layout>
void check_in_place() {
  for (int level = 1; level < kLevels; ++level)
    for (int k = 0; k < nodes_at(level); ++k) REQUIRE(Layout::node(level, k) == Layout::node(level - 1, 2 * k + 1));
}

TEST_CASE("04: classic and padded layouts keep the tree in place, within their cells") {
  check_cells_in_range<ch04::Classic>();
  check_in_place<ch04::Classic>();
  CHECK(ch04::Classic::kCells == kTile);
  check_cells_in_range<ch04::Padded<std::int32_t>>();
  check_in_place<ch04::Padded<std::int32_t>>();
  check_cells_in_range<ch04::Padded<std::int64_t>>();
  check_in_place<ch04::Padded<std::int64_t>>();
  // The pad cells the chapter's README counts: tile + tile/32 (+ tile/1024) at most.
  CHECK(ch04::Padded<std::int32_t>::kCells <= kTile + kTile / 32 + kTile / 1024);
  CHECK(ch04::Padded<std::int64_t>::kCells <= kTile + kTile / 16 + kTile / 256);
}

TEST_CASE("04: the level-by-level layout stores every level apart, in exactly n + (n - 2) cells") {
  using Layout = ch04::LevelByLevel;
  check_cells_in_range<Layout>();
  const std::vector<int> cells = all_node_cells<Layout>();
  const std::set<int> distinct(cells.begin(), cells.end());
  CHECK(distinct.size() == cells.size());  // no level overlaps another
  CHECK(Layout::kCells == kTile + (kTile - 2));
  CHECK(cells.size() == static_cast<std::size_t>(Layout::kCells));  // and no cell is wasted
  for (int level = 0; level < kLevels; ++level) {
    INFO("level ", level);
    CHECK(Layout::node(level, 0) == Layout::level_begin(level));  // each level is contiguous...
    CHECK(Layout::node(level, nodes_at(level) - 1) + 1 == Layout::level_begin(level + 1));  // ...and ends where the next begins
  }
}

// ---- the sweeps, run on the host --------------------------------------------------------

// No cell is touched by two threads in one step when one of them writes it: the reason a
// level needs no barrier inside, only one after it.
template <typename Layout>
void check_no_race_within_a_step() {
  for (bool inclusive : {false, true}) {
    for (const ch04::StepAt& at : ch04::kernel_steps(inclusive)) {
      std::map<int, std::set<int>> threads_of_cell;
      std::set<int> written;
      for (int t = 0; t < at.active_threads; ++t)
        for (const ch04::Access& access : ch04::step_accesses<Layout>(at, t)) {
          threads_of_cell[access.cell].insert(t);
          if (access.store) written.insert(access.cell);
        }
      for (int cell : written) {
        INFO("step ", static_cast<int>(at.step), " level ", at.level, " cell ", cell);
        REQUIRE(threads_of_cell[cell].size() == 1);
      }
    }
  }
}

TEST_CASE("04: within a step, no two threads touch a cell that one of them writes") {
  check_no_race_within_a_step<ch04::Classic>();
  check_no_race_within_a_step<ch04::Padded<std::int32_t>>();
  check_no_race_within_a_step<ch04::Padded<std::int64_t>>();
  check_no_race_within_a_step<ch04::LevelByLevel>();
}

// The kernel's block scan on the host: the same up_sweep_step and down_sweep_step, the
// threads of each level run one after the other, first to last or last to first (a step
// whose threads depended on each other would give different answers). Guard cells after
// the tree must stay untouched.
template <typename Layout, typename T, typename Op>
std::vector<T> host_block_scan(const std::vector<T>& input, bool inclusive, bool last_thread_first) {
  const Op op{};
  const T canary = T(0x5EED);
  constexpr int kGuard = 64;
  std::vector<T> tree(Layout::kCells + kGuard, canary);
  for (int j = 0; j < kTile; ++j)
    tree[Layout::node(0, j)] = j < static_cast<int>(input.size()) ? input[j] : Op::template identity<T>();
  auto each_thread = [&](int active, auto step) {
    for (int i = 0; i < active; ++i) step(last_thread_first ? active - 1 - i : i);
  };
  for (int level = 1; level < kLevels; ++level)
    each_thread(nodes_at(level), [&](int t) { ch04::up_sweep_step<Layout>(tree.data(), level, t, op); });
  for (int level = kLevels; level >= 1; --level)
    each_thread(nodes_at(level), [&](int t) { ch04::down_sweep_step<Layout>(tree.data(), level, t, op); });
  for (int g = 0; g < kGuard; ++g) REQUIRE(tree[Layout::kCells + g] == canary);
  std::vector<T> out(input.size());
  for (std::size_t j = 0; j < input.size(); ++j) {
    const T exclusive = tree[Layout::node(0, static_cast<int>(j))];
    out[j] = inclusive ? op(exclusive, input[j]) : exclusive;
  }
  return out;
}

template <typename Layout, typename T, typename Op>
void check_host_block_scan() {
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33}, std::size_t{1000},
                        std::size_t{kTile - 1}, std::size_t{kTile}}) {
    const std::vector<T> input = sg::random_input<T, Op>(n, sg_test::seed() + n);
    for (bool inclusive : {false, true}) {
      const auto expected = inclusive ? sg::reference_inclusive_scan(input, Op{}) : sg::reference_exclusive_scan(input, Op{});
      for (bool last_first : {false, true}) {
        INFO(sg::type_name<T>(), " ", Op::name, " n = ", n, inclusive ? " inclusive" : " exclusive",
             last_first ? ", last thread first" : ", first thread first", ", seed ", sg_test::seed());
        const std::vector<T> got = host_block_scan<Layout, T, Op>(input, inclusive, last_first);
        CHECK(std::vector<T>(expected.begin(), expected.end()) == got);
      }
    }
  }
}

TEST_CASE_TEMPLATE("04: the up-sweep and down-sweep scan a tile in every layout, in any thread order", E,
                   sg_test::Elements<std::int32_t, sg::Sum>, sg_test::Elements<std::int64_t, sg::Sum>,
                   sg_test::Elements<std::int32_t, sg::Max>) {
  using T = typename E::type;
  using Op = typename E::op;
  check_host_block_scan<ch04::Classic, T, Op>();
  check_host_block_scan<ch04::Padded<T>, T, Op>();
  check_host_block_scan<ch04::LevelByLevel, T, Op>();
}

// ---- the bank-conflict claims of the README ---------------------------------------------

TEST_CASE("04: classic layout: the up-sweep step for level l has 2^l-way conflicts, up to 32 (int32) or 16 (int64)") {
  for (int level = 1; level < kLevels; ++level) {
    INFO("level ", level);
    const int lanes = std::min(nodes_at(level), 32);      // active threads in the busiest warp
    const int stride = 1 << level;                         // cells between neighbouring threads
    CHECK(ch04::up_sweep_conflict_ways<ch04::Classic>(level, 4) == std::min(stride, lanes));
    CHECK(ch04::up_sweep_conflict_ways<ch04::Classic>(level, 8) == std::min({stride, lanes, 16}));
  }
}

TEST_CASE("04: padded layout: no bank conflicts anywhere, with padding per row of banks for each element size") {
  for (bool inclusive : {false, true}) {
    const ch04::SharedTraffic four = ch04::predict_shared_traffic<ch04::Padded<std::int32_t>>(4, inclusive);
    CHECK(four.loads.conflicts() == 0);
    CHECK(four.stores.conflicts() == 0);
    const ch04::SharedTraffic eight = ch04::predict_shared_traffic<ch04::Padded<std::int64_t>>(8, inclusive);
    CHECK(eight.loads.conflicts() == 0);
    CHECK(eight.stores.conflicts() == 0);
  }
  // Padding every 32 elements is not enough for 8-byte elements, whose banks repeat every 16.
  CHECK(ch04::predict_shared_traffic<ch04::PaddedLayout<kTile, 5>>(8, false).loads.conflicts() > 0);
}

TEST_CASE("04: level-by-level layout: two-way conflicts at most, fewer than classic, more than padded") {
  for (int level = 1; level < kLevels; ++level) {
    CHECK(ch04::up_sweep_conflict_ways<ch04::LevelByLevel>(level, 4) <= 2);
    CHECK(ch04::up_sweep_conflict_ways<ch04::LevelByLevel>(level, 8) <= 2);
  }
  const auto classic = ch04::predict_shared_traffic<ch04::Classic>(4, false);
  const auto level_by_level = ch04::predict_shared_traffic<ch04::LevelByLevel>(4, false);
  const auto padded = ch04::predict_shared_traffic<ch04::Padded<std::int32_t>>(4, false);
  CHECK(level_by_level.loads.wavefronts < classic.loads.wavefronts);
  CHECK(level_by_level.loads.wavefronts > padded.loads.wavefronts);
  // Same instructions in every layout: only the wavefronts each one costs differ.
  CHECK(classic.loads.requests == padded.loads.requests);
  CHECK(classic.stores.requests == level_by_level.stores.requests);
}

// ---- on the GPU ------------------------------------------------------------------------

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("04: every layout's exclusive and inclusive tile-local scan matches the CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch04::Chapter, typename E::type, typename E::op>(kTile);
  }
}
