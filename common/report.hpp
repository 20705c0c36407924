// common/report.hpp - one row per measured variant, as an aligned table or as CSV.
//
//   variant        the variant's name (the tour prefixes the chapter)
//   n              elements
//   median, min    milliseconds over the timed repetitions
//   GB/s           effective bandwidth: bytes the operation must move / median time
//   x copy         median time / the copy's median time at the same n, measured in the same
//                  run (1.00 = as fast as a device-to-device copy; lower is better)
//   model          what the variant's traffic model predicts for "x copy"
//   model GB       the bytes the model says the variant moves
//   check          ok, FAIL (with the first wrong element) or "-" when not checked
//
// A row that was not timed (--no-timing) prints "-" in the time columns, never a 0.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace sg {

struct ReportRow {
  std::string variant;
  std::size_t n = 0;
  double median_ms = 0.0;
  double min_ms = 0.0;
  double effective_gb_per_s = 0.0;
  double ratio_to_copy = 0.0;
  double model_ratio = 0.0;
  double model_bytes = 0.0;
  bool timed = true;
  std::string check;  // "ok", "FAIL: ...", "-"
};

inline std::string table_header() {
  char text[256];
  std::snprintf(text, sizeof text, "%-44s %12s %10s %10s %8s %7s %7s %9s  %s", "variant", "n", "median ms", "min ms", "GB/s",
                "x copy", "model", "model GB", "check");
  return text;
}

inline std::string table_row(const ReportRow& row) {
  char text[1024];
  if (!row.timed) {
    std::snprintf(text, sizeof text, "%-44s %12zu %10s %10s %8s %7s %7.2f %9.3f  %s", row.variant.c_str(), row.n, "-", "-", "-", "-",
                  row.model_ratio, row.model_bytes / 1e9, row.check.c_str());
    return text;
  }
  std::snprintf(text, sizeof text, "%-44s %12zu %10.4f %10.4f %8.1f %7.2f %7.2f %9.3f  %s", row.variant.c_str(), row.n,
                row.median_ms, row.min_ms, row.effective_gb_per_s, row.ratio_to_copy, row.model_ratio, row.model_bytes / 1e9,
                row.check.c_str());
  return text;
}

inline std::string csv_header() {
  return "variant,type,op,n,median_ms,min_ms,effective_gb_per_s,ratio_to_copy,model_ratio,model_bytes,valid";
}

inline std::string csv_row(const ReportRow& row, const std::string& type, const std::string& op) {
  char text[1024];
  const char* valid = row.check == "ok" ? "yes" : (row.check == "-" ? "unchecked" : "no");
  if (!row.timed) {
    std::snprintf(text, sizeof text, "%s,%s,%s,%zu,,,,,%.4f,%.0f,%s", row.variant.c_str(), type.c_str(), op.c_str(), row.n,
                  row.model_ratio, row.model_bytes, valid);
    return text;
  }
  std::snprintf(text, sizeof text, "%s,%s,%s,%zu,%.6f,%.6f,%.3f,%.4f,%.4f,%.0f,%s", row.variant.c_str(), type.c_str(), op.c_str(),
                row.n, row.median_ms, row.min_ms, row.effective_gb_per_s, row.ratio_to_copy, row.model_ratio, row.model_bytes, valid);
  return text;
}

}  // namespace sg
