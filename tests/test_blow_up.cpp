// A blow-up stops the run loudly: a NaN injected into a running scene, or a particle thrown far out of the
// domain, stops it within one substep with one message naming the frame, substep, solver, the offending
// particle's id and position, the likely cause and what to change; the CLI exits with status 3 and keeps
// the frames written so far.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace eddy {
namespace {

std::string injectAndRun(const char* solver, Vec3 x, Vec3 v, std::int64_t& substepsAfter,
                         std::int64_t& substepsBefore) {
  auto sim = createSimulation(
      loadScene("", {std::string("solver=") + solver, "fluid.spacing=0.04", "mpm.grid_resolution=20"}),
      Backend::Cpu);
  sim->advanceFrame();
  sim->advanceFrame();
  substepsBefore = sim->substeps();
  sim->overwriteParticle(7, x, v);
  try {
    for (int f = 0; f < 3; ++f) sim->advanceFrame();
  } catch (const SimulationBlowUp& e) {
    substepsAfter = sim->substeps();
    return e.what();
  }
  substepsAfter = sim->substeps();
  return "";
}

void expectStopsWithinOneSubstep(const char* solver, Vec3 x, Vec3 v, const char* what) {
  std::int64_t before = 0, after = 0;
  std::string msg = injectAndRun(solver, x, v, after, before);
  std::printf("  %s, %s: %s\n", solver, what, msg.c_str());
  ASSERT_FALSE(msg.empty()) << solver << " " << what << ": no SimulationBlowUp";
  // the substep in which the fault is first seen does not complete
  EXPECT_LE(after - before, 1) << solver << " " << what;
  for (std::string part : {std::string("frame 3"), std::string("solver ") + solver,
                           std::string("Likely cause"), std::string("Change:")})
    EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
  // the advice names the solver's own keys (DFSPH's once named PBF's iterations)
  if (std::string(solver) == "dfsph") EXPECT_NE(msg.find("dfsph.cfl"), std::string::npos) << msg;
}

TEST(BlowUp, NanPositionStopsEverySolverWithinOneSubstep) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (const char* solver : {"pbf", "wcsph", "dfsph", "mpm"}) {
    expectStopsWithinOneSubstep(solver, {nan, 0.2f, 0.2f}, {0, 0, 0}, "NaN position");
    // the report names the particle by id (particle 7 holds id 7 until the first sort; after it, some id)
    std::int64_t a = 0, b = 0;
    std::string msg = injectAndRun(solver, {nan, 0.2f, 0.2f}, {0, 0, 0}, a, b);
    EXPECT_NE(msg.find("particle id "), std::string::npos) << msg;
    EXPECT_NE(msg.find("is not finite"), std::string::npos) << msg;
  }
}

TEST(BlowUp, NanVelocityStopsEverySolverWithinOneSubstep) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (const char* solver : {"pbf", "wcsph", "dfsph", "mpm"})
    expectStopsWithinOneSubstep(solver, {0.2f, 0.2f, 0.2f}, {0, nan, 0}, "NaN velocity");
}

TEST(BlowUp, ParticleFarOutsideTheDomainStopsSphSolvers) {
  // MPM clamps every particle into its grid; the SPH solvers check where particles are
  for (const char* solver : {"pbf", "wcsph", "dfsph"}) {
    std::int64_t before = 0, after = 0;
    std::string msg = injectAndRun(solver, {0.3f, 50, 0.3f}, {0, 0, 0}, after, before);
    EXPECT_NE(msg.find("left the domain"), std::string::npos) << solver << ": " << msg;
    EXPECT_LE(after - before, 1) << solver;
  }
}

TEST(BlowUp, HealthyRunsDoNotStop) {
  for (const char* solver : {"pbf", "wcsph", "dfsph", "mpm"}) {
    auto sim = createSimulation(
        loadScene("", {std::string("solver=") + solver, "fluid.spacing=0.04", "mpm.grid_resolution=20"}),
        Backend::Cpu);
    EXPECT_NO_THROW(for (int f = 0; f < 10; ++f) sim->advanceFrame()) << solver;
  }
}

// the CLI: exit status 3, one message, the frames before the blow-up complete
TEST(BlowUp, CliExitsWithStatusThreeAndKeepsCompleteFrames) {
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("eddy_blowup_" + std::to_string(::getpid()));
  fs::remove_all(out);
  // a linear equation of state far too stiff for the substeps the scene allows
  std::string cmd = std::string(EDDY_CLI_PATH) + " run --quiet --frames 5 --out " + out.string() +
                    " --set solver=wcsph --set fluid.spacing=0.04 --set wcsph.equation_of_state=linear"
                    " --set wcsph.stiffness=1e7 --set time.max_substeps=40 2> " +
                    out.string() + ".err";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  std::ifstream err(out.string() + ".err");
  std::string text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("eddy: error: the simulation stopped in frame 1"), std::string::npos) << text;
  EXPECT_NE(text.find("time.max_substeps = 40"), std::string::npos) << text;
  EXPECT_NE(text.find("wcsph.stiffness"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  // frame 0 was written whole; no temporary file is left behind
  EXPECT_TRUE(fs::exists(out / "particles_000000.ply"));
  for (const auto& entry : fs::directory_iterator(out))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  fs::remove_all(out);
  fs::remove(out.string() + ".err");
}

// time.max_substeps never stretches a substep past the stability limit silently: WCSPH at c = 150 m/s needs
// 157 substeps a frame of the dam break at 0.04 m; with max_substeps = 40 (3.9 times the limit) the run
// went on for 20 frames with exit 0. It stops with exit 3 in the first frame, naming time.max_substeps and
// the substeps a frame needs, and leaves only the initial frame.
TEST(BlowUp, MaxSubstepsBelowTheStabilityLimitStopsTheRun) {
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("eddy_substeps_" + std::to_string(::getpid()));
  fs::remove_all(out);
  std::string cmd = std::string(EDDY_CLI_PATH) + " run --quiet --frames 20 --out " + out.string() +
                    " --set solver=wcsph --set fluid.spacing=0.04 --set wcsph.speed_of_sound=150"
                    " --set time.max_substeps=40 2> " +
                    out.string() + ".err";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  std::ifstream err(out.string() + ".err");
  std::string text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("the simulation stopped in frame 1"), std::string::npos) << text;
  EXPECT_NE(text.find("time.max_substeps = 40"), std::string::npos) << text;
  EXPECT_NE(text.find("raise time.max_substeps to "), std::string::npos) << text;
  EXPECT_NE(text.find("wcsph.speed_of_sound"), std::string::npos) << text;
  EXPECT_TRUE(fs::exists(out / "particles_000000.ply"));
  EXPECT_FALSE(fs::exists(out / "particles_000001.ply"));
  fs::remove_all(out);
  fs::remove(out.string() + ".err");
}

// ... while a limit the scene's substeps respect runs on: the same scene with max_substeps = 400
TEST(BlowUp, MaxSubstepsAboveTheStabilityLimitRuns) {
  SceneDesc scene = loadScene(
      "", {"solver=wcsph", "fluid.spacing=0.04", "wcsph.speed_of_sound=150", "time.max_substeps=400"});
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 2; ++f) EXPECT_NO_THROW(sim->advanceFrame());
  EXPECT_GT(sim->substeps(), 2 * 40);
}

}  // namespace
}  // namespace eddy
