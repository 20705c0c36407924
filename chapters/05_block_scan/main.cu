// Chapter 05 - the coarsened three-phase block scan. See block_scan.cuh, tile_local.cuh and README.md.
// Run: ./build/bin/05_block_scan --n 2^26        (one move: --variant transposed)
#include "05_block_scan/variants.cuh"
#include "common/program.cuh"

int main(int argc, char** argv) { return sg::chapter_main<ch05::Chapter>(argc, argv); }
