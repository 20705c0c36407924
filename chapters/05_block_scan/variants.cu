// Chapter 05 - the variant list: three ways to move the tile, inclusive and exclusive, at
// the default geometry (256 threads x 32 bytes); then a sweep of threads per block x bytes
// per thread (inclusive only), named move/threads x bytes.
#include "05_block_scan/tile_local.cuh"
#include "05_block_scan/variants.cuh"

namespace ch05 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  const auto model = sg::model::read_write;  // tile-local: read n, write n
  constexpr std::size_t tile = kTileItems<T>;
  constexpr TileMove scalar = TileMove::kScalar, vectorised = TileMove::kVectorised, transposed = TileMove::kTransposed;
  return {
      {"scalar_loads/inclusive", tile_local_scan<T, Op, false, scalar>, inclusive, model, tile},
      {"scalar_loads/exclusive", tile_local_scan<T, Op, true, scalar>, exclusive, model, tile},
      {"vectorised/inclusive", tile_local_scan<T, Op, false, vectorised>, inclusive, model, tile},
      {"vectorised/exclusive", tile_local_scan<T, Op, true, vectorised>, exclusive, model, tile},
      {"transposed/inclusive", tile_local_scan<T, Op, false, transposed>, inclusive, model, tile},
      {"transposed/exclusive", tile_local_scan<T, Op, true, transposed>, exclusive, model, tile},
      // the sweep: threads per block x bytes per thread, for both ways of moving whole tiles
      {"transposed/128x32B", tile_local_scan<T, Op, false, transposed, 128, 32>, inclusive, model, kTileItems<T, 128, 32>},
      {"transposed/128x64B", tile_local_scan<T, Op, false, transposed, 128, 64>, inclusive, model, kTileItems<T, 128, 64>},
      {"transposed/256x64B", tile_local_scan<T, Op, false, transposed, 256, 64>, inclusive, model, kTileItems<T, 256, 64>},
      {"transposed/256x128B", tile_local_scan<T, Op, false, transposed, 256, 128>, inclusive, model, kTileItems<T, 256, 128>},
      {"transposed/512x32B", tile_local_scan<T, Op, false, transposed, 512, 32>, inclusive, model, kTileItems<T, 512, 32>},
      {"transposed/512x64B", tile_local_scan<T, Op, false, transposed, 512, 64>, inclusive, model, kTileItems<T, 512, 64>},
      {"vectorised/128x16B", tile_local_scan<T, Op, false, vectorised, 128, 16>, inclusive, model, kTileItems<T, 128, 16>},
      {"vectorised/256x16B", tile_local_scan<T, Op, false, vectorised, 256, 16>, inclusive, model, kTileItems<T, 256, 16>},
      {"vectorised/256x32B", tile_local_scan<T, Op, false, vectorised, 256, 32>, inclusive, model, kTileItems<T, 256, 32>},
      {"vectorised/512x16B", tile_local_scan<T, Op, false, vectorised, 512, 16>, inclusive, model, kTileItems<T, 512, 16>},
  };
}

}  // namespace ch05

SG_INSTANTIATE_VARIANTS(ch05::Chapter)
