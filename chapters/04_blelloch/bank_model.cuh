// Chapter 04 - Blelloch: a host-side model of the kernel's shared-memory bank conflicts.
//
// Shared memory serves a warp's access in "wavefronts": 32 banks of 4 bytes, each bank
// delivering one 4-byte word per wavefront (lanes reading the same word share it). An
// access whose lanes need k distinct words from one bank takes k wavefronts: a k-way
// conflict. Eight-byte elements use the banks in pairs, so a wavefront serves 16 lanes and
// a full warp needs at least 2. Nsight Compute counts the wavefronts
// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st) and the ones beyond the minimum
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st).
//
// step_accesses() lists, for one thread, the shared-memory cells each step of the kernel
// in blelloch.cuh touches, in program order (it mirrors load_tile, up_sweep_step,
// down_sweep_step and the store). predict_shared_traffic() replays them warp by warp for
// one tile and adds up what the model above says they cost; the tests use the same lists
// to check that no two threads of a step touch the same cell (no race inside a level).
#pragma once

#include "04_blelloch/blelloch.cuh"
#include "04_blelloch/layouts.cuh"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>

namespace ch04 {

// ---- what each step of the kernel touches ----------------------------------------------

enum class Step { LoadTile, KeepInputs, UpSweep, DownSweep, StoreTile };

struct Access {
  bool store;
  int cell;
};

struct StepAt {
  Step step;
  int level;  // UpSweep, DownSweep: the level of the parent nodes
  int active_threads;
};

// Every step of the kernel in order, with the threads that work in it.
inline std::vector<StepAt> kernel_steps(bool inclusive) {
  std::vector<StepAt> steps{{Step::LoadTile, 0, kThreads}};
  if (inclusive) steps.push_back({Step::KeepInputs, 0, kThreads});
  for (int level = 1; level < kLevels; ++level) steps.push_back({Step::UpSweep, level, nodes_at(level)});
  for (int level = kLevels; level >= 1; --level) steps.push_back({Step::DownSweep, level, nodes_at(level)});
  steps.push_back({Step::StoreTile, 0, kThreads});
  return steps;
}

// The cells thread t reads and writes in one step, in program order (a full tile).
template <typename Layout>
std::vector<Access> step_accesses(StepAt at, int t) {
  const int level = at.level;
  switch (at.step) {
    case Step::LoadTile: return {{true, Layout::node(0, t)}, {true, Layout::node(0, t + kThreads)}};
    case Step::KeepInputs: return {{false, Layout::node(0, t)}, {false, Layout::node(0, t + kThreads)}};
    case Step::UpSweep:
      return {{false, Layout::node(level - 1, 2 * t)}, {false, Layout::node(level - 1, 2 * t + 1)}, {true, Layout::node(level, t)}};
    case Step::DownSweep: {
      std::vector<Access> accesses;
      if (level < kLevels) accesses.push_back({false, Layout::node(level, t)});  // the root's prefix is not read
      accesses.push_back({false, Layout::node(level - 1, 2 * t)});
      accesses.push_back({true, Layout::node(level - 1, 2 * t)});
      accesses.push_back({true, Layout::node(level - 1, 2 * t + 1)});
      return accesses;
    }
    case Step::StoreTile: return {{false, Layout::node(0, t)}, {false, Layout::node(0, t + kThreads)}};
  }
  return {};
}
static_assert(kPerThread == 2, "step_accesses lists two leaves per thread");

// ---- what one warp-wide access costs ---------------------------------------------------

inline constexpr int kWarpLanes = 32;
inline constexpr int kInactive = -1;
using LaneCells = std::array<int, kWarpLanes>;  // the cell each lane accesses, or kInactive

struct AccessCost {
  int wavefronts = 0;
  int minimum = 0;  // wavefronts the same bytes need without conflicts
};

inline AccessCost access_cost(const LaneCells& cells, int element_bytes) {
  const int lanes_per_wavefront = kBankRowBytes / element_bytes;  // 32 four-byte, 16 eight-byte
  AccessCost cost;
  for (int first = 0; first < kWarpLanes; first += lanes_per_wavefront) {
    std::map<int, std::set<int>> cells_per_bank;  // bank (or bank pair) -> distinct cells
    for (int lane = first; lane < first + lanes_per_wavefront; ++lane)
      if (cells[lane] != kInactive) cells_per_bank[cells[lane] % lanes_per_wavefront].insert(cells[lane]);
    if (cells_per_bank.empty()) continue;
    std::size_t worst = 0;
    for (const auto& bank : cells_per_bank) worst = std::max(worst, bank.second.size());
    cost.wavefronts += static_cast<int>(worst);
    cost.minimum += 1;
  }
  return cost;
}

// ---- one tile's traffic -----------------------------------------------------------------

struct OpTraffic {
  long long requests = 0;  // warp-wide instructions
  long long wavefronts = 0;
  long long minimum = 0;
  long long conflicts() const { return wavefronts - minimum; }
};

struct SharedTraffic {
  OpTraffic loads, stores;
};

// Calls f(access index, store?, cost) for every warp-wide access of one step. A warp with
// no active thread skips the step: it issues no instruction.
template <typename Layout, typename F>
void for_each_warp_access(StepAt at, int element_bytes, F&& f) {
  const std::size_t count = step_accesses<Layout>(at, 0).size();
  for (int warp = 0; warp * kWarpLanes < at.active_threads; ++warp) {
    for (std::size_t i = 0; i < count; ++i) {
      LaneCells cells;
      bool store = false;
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int t = warp * kWarpLanes + lane;
        cells[lane] = kInactive;
        if (t >= at.active_threads) continue;
        const Access access = step_accesses<Layout>(at, t)[i];
        cells[lane] = access.cell;
        store = access.store;
      }
      f(i, store, access_cost(cells, element_bytes));
    }
  }
}

template <typename Layout>
SharedTraffic predict_shared_traffic(int element_bytes, bool inclusive) {
  SharedTraffic traffic;
  for (const StepAt& at : kernel_steps(inclusive)) {
    for_each_warp_access<Layout>(at, element_bytes, [&](std::size_t, bool store, AccessCost cost) {
      OpTraffic& op = store ? traffic.stores : traffic.loads;
      op.requests += 1;
      op.wavefronts += cost.wavefronts;
      op.minimum += cost.minimum;
    });
  }
  return traffic;
}

// The worst conflict (wavefronts / minimum of one warp-wide access) in the up-sweep step
// that computes `level`: the README's "2^l-way" table.
template <typename Layout>
int up_sweep_conflict_ways(int level, int element_bytes) {
  int worst = 1;
  for_each_warp_access<Layout>(StepAt{Step::UpSweep, level, nodes_at(level)}, element_bytes,
                               [&](std::size_t, bool, AccessCost cost) { worst = std::max(worst, cost.wavefronts / cost.minimum); });
  return worst;
}

}  // namespace ch04
