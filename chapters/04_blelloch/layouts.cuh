// Chapter 04 - Blelloch: where the nodes of the scan tree live in shared memory.
//
// The up-sweep and down-sweep of blelloch.cuh walk a balanced binary tree over the tile:
// level 0 holds the kTile leaves (the input), level l holds kTile >> l nodes, and node
// (l, k) combines nodes (l-1, 2k) and (l-1, 2k+1). A layout only answers "at which
// shared-memory cell does node (l, k) live?"; the three variants of this chapter differ
// in nothing else, so the bank conflicts of each follow from its node() alone (README).
//
//   ClassicLayout       Blelloch in place: a node overwrites its right child, so node (l, k)
//                       sits at the last leaf of its subtree, ((k + 1) << l) - 1. Threads
//                       of level l are 2^l cells apart: 2^l-way bank conflicts, up to 32.
//   PaddedLayout        the same cells with one pad cell after every row of banks
//                       (GPU Gems 3 ch. 39): cell c moves to c + conflict_free_offset(c).
//   LevelByLevelLayout  Merrill & Grimshaw's two-way-conflict layout: the leaves, then
//                       level 1, level 2, ... each stored contiguously after the one below,
//                       so a thread's two children are always 2 cells apart (two-way
//                       conflicts at every level) and parents are written at stride 1.
//                       The nodes are never overwritten: kTile - 2 extra cells. (Adjacent
//                       children also let the compiler fetch both with one 8-byte access,
//                       which removes most of those conflicts in practice: README.)
//
// Every function here is constexpr and callable on the host, so the tests check the
// arithmetic (cells in range, levels disjoint) and bank_model.hpp predicts the conflicts.
#pragma once

#include "common/operators.hpp"  // SG_HOST_DEVICE

namespace ch04 {

// Shared memory: 32 banks, 4 bytes each; one "row" of banks is 128 bytes.
inline constexpr int kBanks = 32;
inline constexpr int kBankRowBytes = kBanks * 4;

constexpr int log2_exact(int x) { return x <= 1 ? 0 : 1 + log2_exact(x / 2); }

// Elements of T per row of banks: 32 int32 or float, 16 int64 (an 8-byte element spans
// two banks, so the banks repeat every 16 elements instead of every 32).
template <typename T>
constexpr int log2_elements_per_bank_row() { return log2_exact(kBankRowBytes / static_cast<int>(sizeof(T))); }

// GPU Gems 3's CONFLICT_FREE_OFFSET, as a function so the parentheses cannot go wrong:
// one pad cell after every row of 2^log_row elements, plus one after every row of rows.
// (The macro as copied far and wide, ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS)),
// parses as (n >> (NUM_BANKS + n)) >> (2 * LOG_NUM_BANKS): it pads nothing; README.)
SG_HOST_DEVICE constexpr int conflict_free_offset(int j, int log_row) { return (j >> log_row) + (j >> (2 * log_row)); }

template <int kTile>
struct ClassicLayout {
  static constexpr int kCells = kTile;
  SG_HOST_DEVICE static constexpr int node(int level, int k) { return ((k + 1) << level) - 1; }
};

template <int kTile, int kLogRow>
struct PaddedLayout {
  SG_HOST_DEVICE static constexpr int padded(int cell) { return cell + conflict_free_offset(cell, kLogRow); }
  static constexpr int kCells = padded(kTile - 1) + 1;
  SG_HOST_DEVICE static constexpr int node(int level, int k) { return padded(ClassicLayout<kTile>::node(level, k)); }
};

template <int kTile>
struct LevelByLevelLayout {
  // Level l starts after levels 0 .. l-1: kTile + kTile/2 + ... + kTile/2^(l-1) cells.
  SG_HOST_DEVICE static constexpr int level_begin(int level) { return 2 * (kTile - (kTile >> level)); }
  // The leaves and the kTile - 2 interior nodes below the root. The root itself is never
  // stored: an exclusive scan needs only its prefix, which is the identity.
  static constexpr int kCells = level_begin(log2_exact(kTile));
  SG_HOST_DEVICE static constexpr int node(int level, int k) { return level_begin(level) + k; }
};

// Element j of the tile is leaf (0, j): the index map load_tile and store_tile use.
template <typename Layout>
struct LeafIndex {
  SG_HOST_DEVICE int operator()(int j) const { return Layout::node(0, j); }
};

}  // namespace ch04
