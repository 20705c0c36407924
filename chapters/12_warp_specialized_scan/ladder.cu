// Chapter 12 - steps 1-5 (ladder.cuh), compiled for every element type and operator.
#include "12_warp_specialized_scan/ladder.cuh"
#include "12_warp_specialized_scan/variants.cuh"

#define SG_CH12_LADDER(T, Op)                                                                        \
  template void ch12::ladder_scan<T, Op, false, 1>(const T*, T*, std::size_t, cudaStream_t);      \
  template void ch12::ladder_scan<T, Op, false, 2>(const T*, T*, std::size_t, cudaStream_t);      \
  template void ch12::ladder_scan<T, Op, false, 3>(const T*, T*, std::size_t, cudaStream_t);      \
  template void ch12::ladder_scan<T, Op, false, 4>(const T*, T*, std::size_t, cudaStream_t);      \
  template void ch12::ladder_scan<T, Op, false, 5>(const T*, T*, std::size_t, cudaStream_t);
SG_CH12_ELEMENTS(SG_CH12_LADDER)
