// Chapter 03 - Hillis-Steele (Kogge-Stone) block scans. See kogge_stone.cuh and README.md.
// Run: ./build/bin/03_hillis_steele --n 2^26        (one tile: --n 1024)
#include "03_hillis_steele/variants.cuh"
#include "common/program.cuh"

int main(int argc, char** argv) { return sg::chapter_main<ch03::Chapter>(argc, argv); }
