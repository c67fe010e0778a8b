// The fixed mutation corpus: seed scenes (tests/fuzz/corpus and the shipped scenes) and more than 10^5
// deterministic mutants of them must each parse or throw eddy::InputError (tests/fuzz/fuzz_input.h), and
// the eddy executable must turn a sample of the bad ones into exit status 2, one "eddy: error:" line and
// no output. Files that libFuzzer found (tests/fuzz/corpus/regression-*) are replayed as they are.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "fuzz/mutator.h"

namespace {

namespace fs = std::filesystem;
using eddy::fuzz::FuzzInput;
using eddy::fuzz::Outcome;

constexpr int kMutants = 100000;
// simulating is what costs; the first valid mutants that fit the limits are simulated, the rest parsed
constexpr int kMaxSimulated = 40;
constexpr int kCliSamples = 24;

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// printable, bounded: inputs go into failure messages
std::string printable(const std::string& s, std::size_t limit = 400) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && out.size() < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  if (s.size() > limit) out += "...(" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::vector<fs::path> filesIn(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());  // the mutants depend on the seed order
  return out;
}

fs::path corpusDir() { return fs::path(EDDY_SOURCE_DIR) / "tests" / "fuzz" / "corpus"; }

// the corpus seeds, then the shipped scenes
std::vector<FuzzInput> seeds() {
  std::vector<FuzzInput> out;
  for (const fs::path& p : filesIn(corpusDir()))
    if (!p.filename().string().starts_with("regression-")) out.push_back(eddy::fuzz::splitInput(readFile(p)));
  for (const char* dir : {"scenes", "scenes/validation"})
    for (const fs::path& p : filesIn(fs::path(EDDY_SOURCE_DIR) / dir))
      if (p.extension() == ".json") out.push_back(eddy::fuzz::splitInput(readFile(p)));
  return out;
}

TEST(FuzzInput, SplitsSceneAndOverrideSections) {
  const FuzzInput in =
      eddy::fuzz::splitInput("{\"a\": 1}\n@@set\npbf.iterations=6\n\nsolver=wcsph\n@@mesh\nv 0\n");
  EXPECT_EQ(in.scene, "{\"a\": 1}\n");
  ASSERT_EQ(in.sets.size(), 2u);
  EXPECT_EQ(in.sets[0], "pbf.iterations=6");
  EXPECT_EQ(in.sets[1], "solver=wcsph");

  EXPECT_EQ(eddy::fuzz::splitInput("@@set\nx=1").scene, "");
  EXPECT_EQ(eddy::fuzz::splitInput("@@set\nx=1").sets.size(), 1u);
  EXPECT_EQ(eddy::fuzz::splitInput("{} @@set x=1").sets.size(), 0u);  // the mark must start a line
  const FuzzInput back = eddy::fuzz::splitInput(eddy::fuzz::joinInput(in));
  EXPECT_EQ(back.sets, in.sets);
}

TEST(FuzzInput, HarnessReportsOtherExceptionsAsFindings) {
  const eddy::fuzz::SimulationLimits noSim{.simulate = false};
  // valid, invalid, and a --set that throws InputError
  EXPECT_EQ(eddy::fuzz::checkInput({readFile(corpusDir() / "pbf_box.json"), {}}, noSim).outcome,
            Outcome::Parsed);
  const auto bad = eddy::fuzz::checkInput({"{", {}}, noSim);
  EXPECT_EQ(bad.outcome, Outcome::Rejected);
  EXPECT_TRUE(bad.finding.empty());
  EXPECT_FALSE(bad.message.empty());
  const auto badSet =
      eddy::fuzz::checkInput({readFile(corpusDir() / "pbf_box.json"), {"colliders.9.x=1"}}, noSim);
  EXPECT_EQ(badSet.outcome, Outcome::Rejected);
  EXPECT_NE(badSet.message.find("--set"), std::string::npos) << badSet.message;
}

TEST(FuzzCorpus, EveryCorpusFileParsesOrIsRejected) {
  const eddy::fuzz::SimulationLimits limits{.maxParticles = 20000, .maxGridResolution = 32};
  int simulated = 0;
  for (const fs::path& p : filesIn(corpusDir())) {
    const eddy::fuzz::Result r = eddy::fuzz::checkInput(eddy::fuzz::splitInput(readFile(p)), limits);
    EXPECT_TRUE(r.finding.empty()) << p.filename() << ": " << r.finding;
    // the seeds are valid scenes, small enough to simulate
    if (!p.filename().string().starts_with("regression-")) {
      EXPECT_EQ(r.outcome, Outcome::Simulated) << p.filename() << ": " << r.message;
      simulated += r.outcome == Outcome::Simulated;
    }
  }
  EXPECT_GE(simulated, 5);
}

struct MutantCounts {
  int parsed = 0, rejected = 0, simulated = 0;
};

TEST(FuzzCorpus, MutantsParseOrThrowInputError) {
  const std::vector<FuzzInput> base = seeds();
  ASSERT_GE(base.size(), 10u);
  eddy::fuzz::Mutator mutator(20260601);
  eddy::fuzz::SimulationLimits limits;
  MutantCounts run;
  int findings = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kMutants; ++i) {
    const FuzzInput input = mutator.mutate(base[std::size_t(i) % base.size()]);
    limits.simulate = run.simulated < kMaxSimulated;
    const eddy::fuzz::Result r = eddy::fuzz::checkInput(input, limits);
    if (!r.finding.empty() && ++findings <= 10) {
      ADD_FAILURE() << "mutant " << i << ": " << r.finding << "\nscene: " << printable(input.scene)
                    << "\nsets: " << printable(eddy::fuzz::joinInput({"", input.sets}));
    }
    run.parsed += r.outcome != Outcome::Rejected;
    run.simulated += r.outcome == Outcome::Simulated;
    run.rejected += r.outcome == Outcome::Rejected;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d mutants in %.1f s: %d valid (%d simulated), %d rejected, %d findings\n", kMutants, seconds,
              run.parsed, run.simulated, run.rejected, findings);
  EXPECT_EQ(findings, 0);
  // a mutator that only breaks the JSON, or never does, would test little
  EXPECT_GT(run.parsed, kMutants / 20);
  EXPECT_GT(run.rejected, kMutants / 2);
  EXPECT_GE(run.simulated, kMaxSimulated / 2);
}

// ---------------------------------------------------------------- the executable on bad input

std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// runs eddy in dir with args; returns the exit status and what it wrote to stderr
std::pair<int, std::string> runCli(const fs::path& dir, const std::string& args) {
  const fs::path err = dir / "stderr.txt";
  const std::string cmd = "cd " + shellQuoted(dir.string()) + " && " + shellQuoted(EDDY_CLI_PATH) + " " +
                          args + " >/dev/null 2>" + shellQuoted(err.string()) + " </dev/null";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(err)};
}

// a key with a newline in it is echoed in the message, which must stay one line
TEST(FuzzCorpus, CliMessageStaysOneLineForKeysWithNewlines) {
  const fs::path dir = fs::temp_directory_path() / ("eddy_fuzz_nl_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "scene.json") << "{\"a\\nb\": 1}";
  const auto [code, text] = runCli(dir, "run scene.json --backend cpu --quiet --out out");
  EXPECT_EQ(code, 2);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_NE(text.find("unknown key '/a\\nb'"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST(FuzzCorpus, CliRejectsBadInputWithOneLineAndNoOutput) {
  const std::vector<FuzzInput> base = seeds();
  eddy::fuzz::Mutator mutator(7);
  const eddy::fuzz::SimulationLimits noSim{.simulate = false};
  const fs::path dir = fs::temp_directory_path() / ("eddy_fuzz_cli_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  int checked = 0;
  for (int i = 0; checked < kCliSamples && i < 100000; ++i) {
    const FuzzInput input = mutator.mutate(base[std::size_t(i) % base.size()]);
    if (i % 97 != 0) continue;  // spread the sample over the mutation kinds
    const eddy::fuzz::Result r = eddy::fuzz::checkInput(input, noSim);
    // argv cannot carry NUL bytes
    const bool nul = std::any_of(input.sets.begin(), input.sets.end(),
                                 [](const std::string& s) { return s.find('\0') != std::string::npos; });
    if (r.outcome != Outcome::Rejected || nul) continue;
    ++checked;

    const fs::path out = dir / "out";
    std::ofstream(dir / "scene.json", std::ios::binary) << input.scene;
    std::string args = "run scene.json --backend cpu --quiet --out out";
    // --set=VALUE, so that a value starting with '-' is not read as a flag
    for (const std::string& s : input.sets) args += " " + shellQuoted("--set=" + s);
    const auto [code, text] = runCli(dir, args);
    EXPECT_EQ(code, 2) << "mutant " << i << ": " << printable(text) << "\nlibrary: " << printable(r.message);
    EXPECT_TRUE(text.starts_with("eddy: error: ")) << "mutant " << i << ": " << printable(text);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << "mutant " << i << ": " << printable(text);
    EXPECT_FALSE(fs::exists(out)) << "mutant " << i << " created the output folder";
    fs::remove_all(out);
  }
  EXPECT_EQ(checked, kCliSamples);
  fs::remove_all(dir);
}

}  // namespace
