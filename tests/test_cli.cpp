// The eddy executable end to end: exit codes, messages, files written (and not written).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string sceneFile(const char* name) { return std::string(EDDY_SOURCE_DIR) + "/scenes/" + name; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("eddy_cli_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // runs eddy with args (already shell-quoted where needed) inside the temp folder
  CliResult run(const std::string& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd = "cd " + quoted(dir_.string()) + " && " + quoted(EDDY_CLI_PATH) + " " + args +
                            " >" + quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(out);
    r.err = readText(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  // a few hundred particles, so a run takes well under a second
  CliResult tinyRun(const std::string& outDir, const std::string& extra = "") {
    return run("run " + quoted(sceneFile("dam_break.json")) + " --frames 2 --set fluid.spacing=0.05 " +
               "--backend cpu --quiet --out " + quoted(outDir) + " " + extra);
  }

  fs::path dir_;
};

int countLines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST_F(Cli, VersionPrintsNameAndExitsZero) {
  const CliResult r = run("--version");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("eddy"), std::string::npos);
  EXPECT_NE(r.out.find("cpu"), std::string::npos);
}

TEST_F(Cli, HelpDocumentsOptions) {
  const CliResult r = run("run --help");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* option : {"--frames", "--out", "--backend", "--format", "--set", "--quiet"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  const CliResult b = run("bench --help");
  EXPECT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.out.find("--particles"), std::string::npos);
}

TEST_F(Cli, UnknownFlagFailsWithoutCreatingOutput) {
  const CliResult r = run("run --no-such-flag --out out");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--no-such-flag"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_FALSE(fs::exists(dir_ / "output"));
}

TEST_F(Cli, MissingSceneFileIsInputError) {
  const CliResult r = run("run no_such_scene.json --out out");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no_such_scene.json"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, InvalidOverrideNamesJsonPath) {
  const CliResult r = run("run --set pbf.iterations=0 --out out");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/pbf/iterations"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, UnwritableOutputFolderIsNamed) {
  const CliResult r = run("run --frames 1 --backend cpu --out /proc/forbidden/x");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("/proc/forbidden/x"), std::string::npos) << r.err;
}

TEST_F(Cli, TinyRunWritesEveryFile) {
  const fs::path out = dir_ / "tiny";
  const CliResult r = tinyRun(out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"particles_000000.ply", "particles_000001.ply", "particles_000002.ply",
                           "stats.jsonl", "profile.json", "scene.json"})
    EXPECT_TRUE(fs::is_regular_file(out / name)) << name;
  EXPECT_EQ(countLines(readText(out / "stats.jsonl")), 3);
  for (const auto& entry : fs::directory_iterator(out))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST_F(Cli, VtkFormatWritesVtu) {
  const fs::path out = dir_ / "vtk";
  const CliResult r = tinyRun(out.string(), "--format vtk");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out / "particles_000000.vtu"));
  EXPECT_TRUE(fs::is_regular_file(out / "particles_000002.vtu"));
  EXPECT_FALSE(fs::exists(out / "particles_000002.ply"));
}

TEST_F(Cli, CpuRunsAreDeterministic) {
  const fs::path a = dir_ / "a", b = dir_ / "b";
  ASSERT_EQ(tinyRun(a.string()).code, 0);
  ASSERT_EQ(tinyRun(b.string()).code, 0);
  const std::string plyA = readText(a / "particles_000002.ply");
  EXPECT_FALSE(plyA.empty());
  EXPECT_TRUE(plyA == readText(b / "particles_000002.ply")) << "particle caches differ";
  EXPECT_EQ(readText(a / "stats.jsonl"), readText(b / "stats.jsonl"));
}

}  // namespace

namespace {

TEST_F(Cli, SceneTooLargeForMemoryIsRejectedBeforeWriting) {
  const CliResult r = run("run " + quoted(sceneFile("jet_tank.json")) +
                          " --set emitters.0.max_particles=1000000000000 --backend cpu --out big");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("jet_tank.json"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "big"));
}

}  // namespace

namespace {

// MPM input: a bad material or a grid that cannot be built is reported before anything is written
TEST_F(Cli, MpmUnknownMaterialTypeIsNamed) {
  const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                          " --set emitters.0.material.type=jelly --backend cpu --out out");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("mpm_dam_break.json: /emitters/0/material/type: unknown value 'jelly'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("water, elastic, snow, sand"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, MpmYoungsModulusMustBePositive) {
  const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                          " --set emitters.0.material.youngs_modulus=0 --backend cpu --out out");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("/emitters/0/material/youngs_modulus: must be > 0, got 0"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, MpmPoissonRatioMustBeBelowOneHalf) {
  for (const char* nu : {"0.5", "-1", "0.7"}) {
    const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                            " --set emitters.0.material.poisson_ratio=" + nu + " --backend cpu --out out");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("/emitters/0/material/poisson_ratio: must be in (-1, 0.5), got " + std::string(nu)),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST_F(Cli, MpmSolidNeedsTheMpmSolver) {
  const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                          " --set emitters.0.material.type=elastic --set solver=pbf --backend cpu --out out");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("/emitters/0/material/type: material 'elastic' needs solver \"mpm\""),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, MpmGridTooLargeForMemoryIsRejectedBeforeWriting) {
  const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                          " --set mpm.grid_resolution=100000 --backend cpu --out big");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("mpm_dam_break.json: /mpm/grid_resolution:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "big"));
}

TEST_F(Cli, MpmTinyRunWritesHeldInStatistic) {
  const fs::path out = dir_ / "mpm";
  const CliResult r = run("run " + quoted(sceneFile("mpm_dam_break.json")) +
                          " --frames 2 --set fluid.spacing=0.05 --set mpm.grid_resolution=16 --backend cpu "
                          "--quiet --out " +
                          quoted(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string stats = readText(out / "stats.jsonl");
  EXPECT_EQ(countLines(stats), 3);
  EXPECT_NE(stats.find("\"held_in\":"), std::string::npos) << stats;
  EXPECT_TRUE(fs::is_regular_file(out / "particles_000002.ply"));
}

}  // namespace
