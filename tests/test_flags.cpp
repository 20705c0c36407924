// Host tests: the flag parser every program shares.
#include "common/flags.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace {
sg::Options parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv = {"program"};
  argv.insert(argv.end(), args.begin(), args.end());
  return sg::parse_options(static_cast<int>(argv.size()), argv.data());
}
}  // namespace

TEST_CASE("flags: defaults") {
  const sg::Options options = parse({});
  CHECK(options.sizes == std::vector<std::size_t>{std::size_t{1} << 26});
  CHECK(options.check);
  CHECK_FALSE(options.csv);
  CHECK_FALSE(options.seed_given);
  CHECK(options.type == "int32");
  CHECK(options.op == "sum");
}

TEST_CASE("flags: sizes accept integers, powers of two with offsets, and binary suffixes") {
  CHECK(parse({"--n", "1000"}).sizes == std::vector<std::size_t>{1000});
  CHECK(parse({"--n=2^26"}).sizes == std::vector<std::size_t>{std::size_t{1} << 26});
  CHECK(parse({"--n", "2^10+1,2^10-1,0"}).sizes == std::vector<std::size_t>{1025, 1023, 0});
  CHECK(parse({"--n", "64M"}).sizes == std::vector<std::size_t>{std::size_t{64} << 20});
  CHECK(parse({"--n", "2G"}).sizes == std::vector<std::size_t>{std::size_t{2} << 30});
  CHECK(parse({"--n", "2^33"}).sizes == std::vector<std::size_t>{std::size_t{1} << 33});
}

TEST_CASE("flags: every flag") {
  const sg::Options options = parse({"--iters", "7", "--warmup=0", "--seed", "42", "--variant", "blelloch,kogge", "--csv",
                                     "--no-check", "--type", "float", "--op", "max"});
  CHECK(options.iters == 7);
  CHECK(options.warmup == 0);
  CHECK(options.seed == 42);
  CHECK(options.seed_given);
  CHECK(options.variants == std::vector<std::string>{"blelloch", "kogge"});
  CHECK(options.csv);
  CHECK_FALSE(options.check);
  CHECK(options.type == "float");
  CHECK(options.op == "max");
  CHECK(parse({"--no-check", "--check"}).check);
  CHECK(parse({"--help"}).help);
}

TEST_CASE("flags: unknown flags and bad values are usage errors with a clear message") {
  CHECK_THROWS_WITH_AS(parse({"--bogus"}), "unknown flag '--bogus'", sg::UsageError);
  CHECK_THROWS_WITH_AS(parse({"--n"}), "--n needs a value", sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "banana"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "-5"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "2^"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "2^70"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "2^4-17"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "1,,2"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "99999999999999999999999"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--iters", "0"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--iters", "ten"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--type", "int8"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--op", "min"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--csv=yes"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"n=5"}), sg::UsageError);
}

TEST_CASE("flags: --n suite, --no-timing and --repeat") {
  const sg::Options suite = parse({"--n", "suite", "--no-timing", "--repeat", "5"});
  CHECK(suite.suite);
  CHECK(suite.sizes.empty());  // filled in from the seed by the program
  CHECK_FALSE(suite.timing);
  CHECK(suite.repeat == 5);
  CHECK_FALSE(parse({"--n", "suite", "--n", "100"}).suite);  // the last --n wins
  CHECK_THROWS_WITH_AS(parse({"--n", "suite,100"}), "--n: 'suite' is a list of its own and cannot be combined with other sizes",
                       sg::UsageError);
  CHECK_THROWS_WITH_AS(parse({"--repeat", "3"}), "--repeat works with --n suite only", sg::UsageError);
  CHECK_THROWS_AS(parse({"--no-timing", "--no-check"}), sg::UsageError);
  CHECK_THROWS_AS(parse({"--n", "suite", "--repeat", "0"}), sg::UsageError);
}

TEST_CASE("flags: --variant selects by substring, or by prefix with ^; no filter selects all") {
  sg::Options options;
  CHECK(sg::variant_selected(options, "anything"));
  options.variants = {"blelloch"};
  CHECK(sg::variant_selected(options, "04 blelloch/padded"));
  CHECK_FALSE(sg::variant_selected(options, "03 kogge_stone/two_barrier"));
  options.variants = {"^7_spread"};
  CHECK(sg::variant_selected(options, "7_spread_status/inclusive"));
  CHECK_FALSE(sg::variant_selected(options, "sweep/7_spread_status/1_lookback_warp"));
  options.variants = {"^"};  // an empty prefix: everything
  CHECK(sg::variant_selected(options, "anything"));
}

TEST_CASE("flags: --list, and a --variant entry that matches no name is an error") {
  CHECK(parse({"--list"}).list);
  CHECK_THROWS_AS(parse({"--list=yes"}), sg::UsageError);
  const std::vector<std::string> names = {"1_bulk_loads", "6_one_block_per_SM/inclusive", "baseline/cub/inclusive"};
  sg::Options options;
  CHECK_NOTHROW(sg::require_variants_match(options, names));  // no filter
  options.variants = {"^6_", "cub"};
  CHECK_NOTHROW(sg::require_variants_match(options, names));
  options.variants = {"^6_", "6_one_blok"};  // a typo in one entry
  CHECK_THROWS_WITH_AS(sg::require_variants_match(options, names),
                       "--variant: no variant matches '6_one_blok' (run with --list to see the names)", sg::UsageError);
  options.variants = {"^inclusive"};  // a prefix, not a substring
  CHECK_THROWS_AS(sg::require_variants_match(options, names), sg::UsageError);
}

TEST_CASE("flags: usage names every flag and the exit codes") {
  const std::string text = sg::usage("prog", "what it does");
  for (const char* flag : {"--n", "--iters", "--warmup", "--seed", "--variant", "--type", "--op", "--csv", "--check", "--no-check", "--no-timing", "--repeat", "--list", "--help"})
    CHECK(text.find(flag) != std::string::npos);
  CHECK(text.find("exit codes") != std::string::npos);
}

TEST_CASE("flags: a program's own flag is parsed by its own function and shown in the usage") {
  std::vector<double> keep;
  sg::Options defaults;
  defaults.extra_flags.push_back({"--keep", "LIST", "fractions of the elements kept", [&](const std::string& value) {
                                    keep.clear();
                                    for (const std::string& item : sg::detail::split_list(value, "--keep"))
                                      keep.push_back(sg::detail::parse_fraction(item, "--keep"));
                                  }});
  const std::vector<const char*> argv = {"prog", "--keep", "0.01,.5,1", "--n", "1000"};
  const sg::Options options = sg::parse_options(static_cast<int>(argv.size()), argv.data(), defaults);
  CHECK(options.sizes == std::vector<std::size_t>{1000});
  CHECK(keep == std::vector<double>{0.01, 0.5, 1.0});
  const std::vector<const char*> bad = {"prog", "--keep=1.5"};
  CHECK_THROWS_WITH_AS(sg::parse_options(static_cast<int>(bad.size()), bad.data(), defaults), "--keep: '1.5' is not a fraction in [0, 1]",
                       sg::UsageError);
  const std::vector<const char*> junk = {"prog", "--keep", "half"};
  CHECK_THROWS_AS(sg::parse_options(static_cast<int>(junk.size()), junk.data(), defaults), sg::UsageError);
  const std::vector<const char*> other = {"prog", "--keep", "0.5"};
  CHECK_THROWS_WITH_AS(sg::parse_options(static_cast<int>(other.size()), other.data()), "unknown flag '--keep'", sg::UsageError);
  CHECK(sg::usage("prog", "what it does", defaults).find("--keep LIST") != std::string::npos);
}

TEST_CASE("flags: a program's own switch takes no value") {
  bool timeline = false;
  sg::Options defaults;
  defaults.extra_flags.push_back({"--timeline", "", "draw the median run", [&](const std::string&) { timeline = true; }});
  const std::vector<const char*> argv = {"prog", "--timeline", "--n", "1000"};
  const sg::Options options = sg::parse_options(static_cast<int>(argv.size()), argv.data(), defaults);
  CHECK(timeline);
  CHECK(options.sizes == std::vector<std::size_t>{1000});
  const std::vector<const char*> bad = {"prog", "--timeline=yes"};
  CHECK_THROWS_WITH_AS(sg::parse_options(static_cast<int>(bad.size()), bad.data(), defaults), "--timeline takes no value", sg::UsageError);
  CHECK(sg::usage("prog", "what it does", defaults).find("--timeline") != std::string::npos);
}
