// Host tests: the traffic model and the report rows built from it.
#include "common/report.hpp"
#include "common/traffic_model.hpp"

#include <doctest/doctest.h>

TEST_CASE("traffic model: what an operation must move") {
  const std::size_t n = 1000;
  CHECK(sg::must_move_bytes(sg::Computes::Copy, n, 4) == 8000.0);
  CHECK(sg::must_move_bytes(sg::Computes::InclusiveScan, n, 4) == 8000.0);
  CHECK(sg::must_move_bytes(sg::Computes::ExclusiveScan, n, 8) == 16000.0);
  CHECK(sg::must_move_bytes(sg::Computes::Reduce, n, 4) == 4004.0);
  CHECK(sg::copy_bytes(n, 4) == 8000.0);
}

TEST_CASE("traffic model: the predictions every chapter is measured against") {
  const std::size_t n = std::size_t{1} << 26;
  CHECK(sg::predicted_ratio(sg::model::read_write, n, 4) == doctest::Approx(1.0));           // copy, single pass
  CHECK(sg::predicted_ratio(sg::model::read_only, n, 4) == doctest::Approx(0.5));            // reduction
  CHECK(sg::predicted_ratio(sg::model::reduce_then_scan, n, 4) == doctest::Approx(1.5));     // 3n
  CHECK(sg::predicted_ratio(sg::model::scan_then_propagate, n, 4) == doctest::Approx(2.0));  // 4n
  CHECK(sg::predicted_ratio(sg::model::scan_then_propagate, n, 8) == doctest::Approx(2.0));  // independent of the type
  CHECK(sg::predicted_ratio(sg::model::read_write, 0, 4) == 0.0);
}

TEST_CASE("report: table and CSV rows carry every column") {
  sg::ReportRow row;
  row.variant = "03 kogge_stone/warp_shuffle";
  row.n = 67108864;
  row.median_ms = 0.2;
  row.min_ms = 0.19;
  row.effective_gb_per_s = 2684.4;
  row.ratio_to_copy = 1.07;
  row.model_ratio = 1.0;
  row.model_bytes = 536870912;
  row.check = "ok";
  const std::string line = sg::table_row(row);
  for (const char* part : {"03 kogge_stone/warp_shuffle", "67108864", "0.2000", "2684.4", "1.07", "1.00", "0.537", "ok"})
    CHECK(line.find(part) != std::string::npos);
  CHECK(sg::table_header().find("x copy") != std::string::npos);
  CHECK(sg::csv_row(row, "int32", "sum") == "03 kogge_stone/warp_shuffle,int32,sum,67108864,0.200000,0.190000,2684.400,1.0700,1.0000,536870912,yes");
  row.check = "FAIL: 1 of 2 elements wrong";
  CHECK(sg::csv_row(row, "int32", "sum").substr(sg::csv_row(row, "int32", "sum").size() - 3) == ",no");
  CHECK(sg::csv_header().find("ratio_to_copy") != std::string::npos);
}
