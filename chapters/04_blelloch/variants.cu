// Chapter 04 - Blelloch: the variant list. Every variant is tile-local (each block scans
// its own kTile elements) with the same tile, so the rows compare the layouts alone.
// Blelloch's scan is natively exclusive; each layout also has its inclusive form.
#include "04_blelloch/blelloch.cuh"
#include "04_blelloch/variants.cuh"

namespace ch04 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  namespace model = sg::model;
  constexpr std::size_t tile = kTile;
  return {
      {"classic/exclusive", blelloch_tile_local<T, Op, Classic, false>, Computes::ExclusiveScan, model::read_write, tile},
      {"classic/inclusive", blelloch_tile_local<T, Op, Classic, true>, Computes::InclusiveScan, model::read_write, tile},
      {"padded/exclusive", blelloch_tile_local<T, Op, Padded<T>, false>, Computes::ExclusiveScan, model::read_write, tile},
      {"padded/inclusive", blelloch_tile_local<T, Op, Padded<T>, true>, Computes::InclusiveScan, model::read_write, tile},
      {"level_by_level/exclusive", blelloch_tile_local<T, Op, LevelByLevel, false>, Computes::ExclusiveScan, model::read_write, tile},
      {"level_by_level/inclusive", blelloch_tile_local<T, Op, LevelByLevel, true>, Computes::InclusiveScan, model::read_write, tile},
  };
}

}  // namespace ch04

SG_INSTANTIATE_VARIANTS(ch04::Chapter)
