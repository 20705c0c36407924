// Chapter 12 - step 6, the final kernel (warp_specialized.cuh), compiled for every element type
// and operator, inclusive and exclusive.
#include "12_warp_specialized_scan/variants.cuh"
#include "12_warp_specialized_scan/warp_specialized.cuh"

#define SG_CH12_FINAL(T, Op)                                                                               \
  template void ch12::warp_specialized_scan<T, Op, false>(const T*, T*, std::size_t, cudaStream_t); \
  template void ch12::warp_specialized_scan<T, Op, true>(const T*, T*, std::size_t, cudaStream_t);
SG_CH12_ELEMENTS(SG_CH12_FINAL)

bool ch12::runs_bulk_copy_kernel() {
  static std::map<int, Plan> plans;
  constexpr auto kernel = warp_specialized_kernel<int, sg::Sum, false, 16>;
  return plan_launch(plans, kernel, kBlockThreads<16>, kTileItems<int, 16> * sizeof(int), Geometry{0, 0, 1}).bulk_copies;
}
