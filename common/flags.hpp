// common/flags.hpp - the one command line every chapter program and the tour accept.
//
//   --n 2^26,1000000    sizes in elements: integers, 2^k, 2^k+c or 2^k-c, K/M/G (x1024);
//                       or "suite": the 2,022 sizes of suite.hpp, validated on the device
//   --iters 50          timed repetitions (median and min are reported)
//   --warmup 5          untimed runs first
//   --seed 42           input seed (default: fresh each run, always printed)
//   --variant a,^b      run only variants whose name contains a, or starts with b
//   --type int32        element type: int32, int64 or float
//   --op sum            operator: sum or max
//   --csv               machine-readable output
//   --check/--no-check  validate against the CPU reference (default: check)
//   --no-timing         validate only: no copy baseline, no timed runs
//   --repeat R          with --n suite: every size R times, fresh data each time (stress)
//   --list              print the variant names, one a line, and exit (no GPU needed)
//   --help
//
// A chapter that needs a flag of its own (chapter 10's --keep) lists it in
// Options::extra_flags: its name, its help line and a function that parses its value. One
// that has no use for a shared flag (chapter 10 has no operator) lists it in
// Options::refused_flags with the reason: naming it is then an error, and --help omits it.
// Unknown flags and bad values throw UsageError; main() prints it and exits with code 2, as it
// does for a --variant entry that matches no name of Options::variant_names (a typo would
// otherwise print an empty table and pass).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A flag only one program has: parse(value) stores it (or throws UsageError).
struct ExtraFlag {
  std::string flag;        // "--keep"
  std::string value_name;  // "LIST", printed in the usage; empty: a switch that takes no value
  std::string help;        // one line
  std::function<void(const std::string& value)> parse;
};

// A shared flag a program does not accept, and why ("--op", "chapter 10 compacts; ...").
struct RefusedFlag {
  std::string flag;
  std::string reason;
};

struct Options {
  std::vector<std::size_t> sizes{std::size_t{1} << 26};
  int iters = 50;
  int warmup = 5;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::vector<std::string> variants;
  std::string type = "int32";
  std::string op = "sum";
  bool csv = false;
  bool check = true;
  bool timing = true;
  bool suite = false;  // --n suite: sizes are filled in from the seed once it is known
  int repeat = 1;
  bool help = false;
  bool list = false;
  std::vector<ExtraFlag> extra_flags;
  std::vector<RefusedFlag> refused_flags;
  // The names --variant selects from, for these options' type and operator (--list prints them).
  std::function<std::vector<std::string>(const Options&)> variant_names;
};

// Exit codes shared by every program.
enum ExitCode : int { kExitOk = 0, kExitInvalid = 1, kExitUsage = 2, kExitEnvironment = 3 };

namespace detail {

inline std::uint64_t parse_unsigned(const std::string& text, const std::string& flag) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(flag + ": '" + text + "' is not a non-negative integer");
  std::uint64_t value = 0;
  for (char c : text) {
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) throw UsageError(flag + ": '" + text + "' is too large");
    value = value * 10 + digit;
  }
  return value;
}

// "1000", "2^26", "2^26+1", "2^26-1", "64M", "1G"
inline std::size_t parse_size(const std::string& text, const std::string& flag) {
  const std::string bad = flag + ": '" + text + "' is not a size (try 1000, 2^26, 2^26+1, 64M)";
  if (text.rfind("2^", 0) == 0) {
    const std::size_t sign = text.find_first_of("+-", 2);
    const std::string exponent_text = text.substr(2, sign == std::string::npos ? std::string::npos : sign - 2);
    if (exponent_text.empty() || exponent_text.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
    const std::uint64_t exponent = parse_unsigned(exponent_text, flag);
    if (exponent > 62) throw UsageError(flag + ": 2^" + exponent_text + " is too large");
    const std::uint64_t base = std::uint64_t{1} << exponent;
    if (sign == std::string::npos) return base;
    const std::string offset_text = text.substr(sign + 1);
    if (offset_text.empty() || offset_text.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
    const std::uint64_t offset = parse_unsigned(offset_text, flag);
    if (text[sign] == '-') {
      if (offset > base) throw UsageError(flag + ": '" + text + "' is negative");
      return base - offset;
    }
    return base + offset;
  }
  std::uint64_t scale = 1;
  std::string digits = text;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K': scale = std::uint64_t{1} << 10; break;
      case 'M': scale = std::uint64_t{1} << 20; break;
      case 'G': scale = std::uint64_t{1} << 30; break;
      default: break;
    }
    if (scale != 1) digits.pop_back();
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
  const std::uint64_t value = parse_unsigned(digits, flag);
  if (value > (std::uint64_t{1} << 62) / scale) throw UsageError(flag + ": '" + text + "' is too large");
  return value * scale;
}

inline std::vector<std::string> split_list(const std::string& text, const std::string& flag) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) throw UsageError(flag + ": empty item in '" + text + "'");
    items.push_back(item);
  }
  if (items.empty()) throw UsageError(flag + " needs a value");
  return items;
}

inline int parse_count(const std::string& text, const std::string& flag, int minimum) {
  const std::uint64_t value = parse_unsigned(text, flag);
  if (value < static_cast<std::uint64_t>(minimum) || value > 1000000)
    throw UsageError(flag + ": " + text + " is out of range [" + std::to_string(minimum) + ", 1000000]");
  return static_cast<int>(value);
}

// "0.5", ".01", "1": a fraction in [0, 1].
inline double parse_fraction(const std::string& text, const std::string& flag) {
  std::size_t used = 0;
  double value = -1.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !(value >= 0.0 && value <= 1.0))
    throw UsageError(flag + ": '" + text + "' is not a fraction in [0, 1]");
  return value;
}

inline std::string parse_choice(const std::string& text, const std::string& flag, const std::vector<std::string>& choices) {
  std::string list;
  for (const std::string& choice : choices) {
    if (text == choice) return text;
    list += (list.empty() ? "" : ", ") + choice;
  }
  throw UsageError(flag + ": '" + text + "' is not one of " + list);
}

}  // namespace detail

inline Options parse_options(int argc, const char* const* argv, Options options = Options{}) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    std::string value;
    bool has_value = false;
    if (const std::size_t equals = flag.find('='); flag.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = flag.substr(equals + 1);
      flag = flag.substr(0, equals);
      has_value = true;
    }
    auto take_value = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) throw UsageError(flag + " needs a value");
      return argv[++i];
    };
    auto no_value = [&]() {
      if (has_value) throw UsageError(flag + " takes no value");
    };
    for (const RefusedFlag& refused : options.refused_flags)
      if (flag == refused.flag) throw UsageError(flag + ": " + refused.reason);

    if (flag == "--n") {
      options.sizes.clear();
      options.suite = false;
      const std::vector<std::string> items = detail::split_list(take_value(), flag);
      for (const std::string& item : items) {
        if (item != "suite") options.sizes.push_back(detail::parse_size(item, flag));
        else if (items.size() == 1) options.suite = true;
        else throw UsageError(flag + ": 'suite' is a list of its own and cannot be combined with other sizes");
      }
    } else if (flag == "--iters") {
      options.iters = detail::parse_count(take_value(), flag, 1);
    } else if (flag == "--warmup") {
      options.warmup = detail::parse_count(take_value(), flag, 0);
    } else if (flag == "--seed") {
      options.seed = detail::parse_unsigned(take_value(), flag);
      options.seed_given = true;
    } else if (flag == "--variant") {
      options.variants = detail::split_list(take_value(), flag);
    } else if (flag == "--type") {
      options.type = detail::parse_choice(take_value(), flag, {"int32", "int64", "float"});
    } else if (flag == "--op") {
      options.op = detail::parse_choice(take_value(), flag, {"sum", "max"});
    } else if (flag == "--csv") {
      no_value();
      options.csv = true;
    } else if (flag == "--check") {
      no_value();
      options.check = true;
    } else if (flag == "--no-check") {
      no_value();
      options.check = false;
    } else if (flag == "--no-timing") {
      no_value();
      options.timing = false;
    } else if (flag == "--repeat") {
      options.repeat = detail::parse_count(take_value(), flag, 1);
    } else if (flag == "--list") {
      no_value();
      options.list = true;
    } else if (flag == "--help" || flag == "-h") {
      no_value();
      options.help = true;
    } else {
      bool known = false;
      for (const ExtraFlag& extra : options.extra_flags) {
        if (flag != extra.flag) continue;
        if (extra.value_name.empty()) {
          no_value();
          extra.parse("");
        } else {
          extra.parse(take_value());
        }
        known = true;
        break;
      }
      if (!known) throw UsageError("unknown flag '" + flag + "'");
    }
  }
  if (options.repeat > 1 && !options.suite) throw UsageError("--repeat works with --n suite only");
  if (!options.timing && !options.check) throw UsageError("--no-timing with --no-check would do nothing");
  return options;
}

inline std::string usage(const std::string& program, const std::string& description, const Options& defaults = Options{}) {
  std::ostringstream text;
  auto shared = [&](const std::string& flag, const std::string& line) {  // a shared flag's line, unless refused
    for (const RefusedFlag& refused : defaults.refused_flags)
      if (flag == refused.flag) return;
    text << line << "\n";
  };
  std::string sizes;
  for (std::size_t i = 0; i < defaults.sizes.size(); ++i) sizes += (i ? "," : " ") + std::to_string(defaults.sizes[i]);
  text << "usage: " << program << " [flags]\n" << description << "\n\n";
  shared("--n", "  --n LIST          sizes in elements: 1000, 2^26, 2^26+1, 64M, or 'suite' (2,022 sizes) (default" + sizes + ")");
  shared("--iters", "  --iters N         timed repetitions; median and min are reported (default " + std::to_string(defaults.iters) + ")");
  shared("--warmup", "  --warmup N        untimed runs before timing (default " + std::to_string(defaults.warmup) + ")");
  shared("--seed", "  --seed S          input seed (default: a fresh one, printed)");
  shared("--variant", "  --variant LIST    run only variants whose name contains one of these (^x: starts with x)");
  shared("--type", "  --type T          int32, int64 or float (default " + defaults.type + ")");
  shared("--op", "  --op OP           sum or max (default " + defaults.op + ")");
  shared("--csv", "  --csv             comma-separated output");
  shared("--check", "  --check           validate against the CPU reference (default)");
  shared("--no-check", "  --no-check        skip validation (profiling runs)");
  shared("--no-timing", "  --no-timing       validate only, time nothing");
  shared("--repeat", "  --repeat R        with --n suite: every size R times with fresh data (a stress run)");
  for (const ExtraFlag& extra : defaults.extra_flags) {
    std::string name = extra.value_name.empty() ? extra.flag : extra.flag + " " + extra.value_name;
    name.resize(std::max<std::size_t>(name.size(), 17), ' ');
    text << "  " << name << " " << extra.help << "\n";
  }
  text << "  --list            print the variant names, one a line\n"
       << "  --help            this text\n\n"
       << "exit codes: 0 ok, 1 a result was wrong, 2 bad flags, 3 no CUDA device or not enough memory\n";
  return text.str();
}

// True when `name` is selected by --variant (no filter selects everything): it contains one of
// the filter's entries, or, for an entry "^prefix", starts with it.
inline bool variant_selected(const Options& options, const std::string& name) {
  if (options.variants.empty()) return true;
  for (const std::string& wanted : options.variants) {
    if (!wanted.empty() && wanted[0] == '^') {
      if (name.rfind(wanted.substr(1), 0) == 0) return true;
    } else if (name.find(wanted) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// Every --variant entry must select at least one of `names`: a UsageError names the first that
// does not.
inline void require_variants_match(const Options& options, const std::vector<std::string>& names) {
  for (const std::string& wanted : options.variants) {
    Options one;
    one.variants = {wanted};
    bool matched = false;
    for (const std::string& name : names) matched = matched || variant_selected(one, name);
    if (!matched) throw UsageError("--variant: no variant matches '" + wanted + "' (run with --list to see the names)");
  }
}

}  // namespace sg
