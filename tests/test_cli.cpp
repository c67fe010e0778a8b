// The eddy executable end to end: exit codes, messages, files written (and not written).
#include <eddy/checkpoint.h>
#include <eddy/mesh.h>
#include <eddy/simulation.h>
#include <eddy/vdb.h>
#include <eddy/version.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

using eddy::inspectMesh;
using eddy::loadTriangleMesh;
using eddy::MeshReport;
using eddy::TriangleMesh;

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
  for (const char* option :
       {"--frames", "--out", "--backend", "--format", "--set", "--quiet", "--checkpoint-every", "--resume"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  const CliResult b = run("bench --help");
  EXPECT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.out.find("--particles"), std::string::npos);
  const CliResult m = run("mesh-info --help");
  EXPECT_EQ(m.code, 0) << m.err;
  EXPECT_NE(m.out.find("FILE"), std::string::npos);
}

// the help names every registered solver: the program's description and bench's --solver
TEST_F(Cli, HelpNamesEverySolver) {
  const CliResult r = run("--help");
  EXPECT_EQ(r.code, 0) << r.err;
  const CliResult b = run("bench --help");
  EXPECT_EQ(b.code, 0) << b.err;
  std::string choices;
  for (const std::string& name : eddy::solverNames()) {
    std::string upper = name;
    for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_NE(r.out.find("(" + upper), std::string::npos) << upper << " not in: " << r.out;
    choices += (choices.empty() ? "" : "|") + name;
  }
  EXPECT_NE(b.out.find("--solver " + choices), std::string::npos) << b.out;
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
  const std::string stats = readText(out / "stats.jsonl");
  EXPECT_EQ(countLines(stats), 3);
  // the dam break takes 4 substeps a frame: each line has its frame's, and the running total
  EXPECT_NE(stats.find("\"substeps\":0,\"substeps_total\":0,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"substeps\":4,\"substeps_total\":4,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"substeps\":4,\"substeps_total\":8,"), std::string::npos) << stats;
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

// a unit cube as OBJ quads
void writeCubeObj(const fs::path& file) {
  std::ofstream(file) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n"
                         "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\nf 1 3 4 2\nf 5 6 8 7\n";
}

TEST_F(Cli, MeshInfoReportsACube) {
  writeCubeObj(dir_ / "cube.obj");
  const CliResult r = run("mesh-info cube.obj");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* line : {"file:        cube.obj", "vertices:    8", "triangles:   12",
                           "bounds min:  [0, 0, 0]", "bounds max:  [1, 1, 1]", "size:        [1, 1, 1]",
                           "closed:      yes (boundary edges: 0, non-manifold edges: 0)",
                           "degenerate:  0 triangles", "load time:   "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " not in:\n" << r.out;
}

// an open sheet (two triangles): its field is built only as a thin shell
TEST_F(Cli, MeshInfoBuildsAnOpenSheetAsAShell) {
  std::ofstream(dir_ / "sheet.obj") << "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n";
  const CliResult open = run("mesh-info sheet.obj --sdf-resolution 32 --backend cpu");
  EXPECT_EQ(open.code, 2);
  EXPECT_NE(open.out.find("closed:      no (boundary edges: 4"), std::string::npos) << open.out;
  EXPECT_NE(open.err.find("--sdf-thickness"), std::string::npos) << open.err;
  const CliResult shell = run("mesh-info sheet.obj --sdf-resolution 32 --sdf-thickness 0.05 --backend cpu");
  ASSERT_EQ(shell.code, 0) << shell.err;
  EXPECT_NE(shell.out.find("sdf   32:"), std::string::npos) << shell.out;
}

// `eddy surface` over a run's frames: one closed mesh per frame, named by the frame
TEST_F(Cli, SurfaceReconstructsEachFrame) {
  const fs::path parts = dir_ / "parts", surf = dir_ / "surf";
  ASSERT_EQ(tinyRun(parts.string()).code, 0);
  const CliResult r = run("surface parts --out surf --spacing 0.05 --backend cpu");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("[3/3] surface_000002.ply"), std::string::npos) << r.out;
  for (const char* name : {"surface_000000.ply", "surface_000001.ply", "surface_000002.ply"}) {
    TriangleMesh mesh = loadTriangleMesh((surf / name).string());
    MeshReport report = inspectMesh(mesh);
    EXPECT_GT(report.triangles, 100u) << name;
    EXPECT_TRUE(report.closed()) << name;
  }
}

// bad input: one line naming the file or the flag, exit 2, nothing written
TEST_F(Cli, SurfaceBadInputWritesNothing) {
  ASSERT_EQ(tinyRun((dir_ / "parts").string()).code, 0);
  fs::create_directories(dir_ / "noxyz");
  std::ofstream(dir_ / "noxyz" / "particles_000000.ply")
      << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float a\nproperty float b\nend_header\n1 2\n";
  fs::create_directories(dir_ / "nan");
  std::ofstream(dir_ / "nan" / "particles_000000.ply")
      << "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
         "end_header\n0 0 0\n0 nan 0\n";
  fs::create_directories(dir_ / "empty");
  struct Case {
    std::string args, mention;
  } cases[] = {
      {"surface noxyz --out s1 --spacing 0.05", "x, y and z"},
      {"surface nan --out s2 --spacing 0.05", "particles_000000.ply"},
      {"surface empty --out s3 --spacing 0.05", "holds no particle frames"},
      {"surface missing --out s4 --spacing 0.05", "'missing' not found"},
      {"surface parts --out s5 --spacing 0", "--spacing"},
      {"surface parts --out s6 --spacing 0.05 --cell 0", "--cell"},
      {"surface parts --out /proc/forbidden/x --spacing 0.05", "/proc/forbidden/x"},
  };
  for (const Case& c : cases) {
    const CliResult r = run(c.args + " --backend cpu");
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_NE(r.err.find(c.mention), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("eddy: error: ", 0), 0u) << r.err;
  }
  for (const char* folder : {"s1", "s2", "s3", "s4", "s5", "s6"})
    EXPECT_FALSE(fs::exists(dir_ / folder)) << folder;
}

// `eddy surface` over a run's .vtu frames (`eddy run --format vtk`): the same meshes as from the same run's
// PLY frames (the CPU run is deterministic and both hold the same float positions; the field's parallel
// sums may round differently, hence the tolerance), a progress line per frame in logs and the phase table
TEST_F(Cli, SurfaceReadsVtuFramesLikePly) {
  ASSERT_EQ(tinyRun((dir_ / "ply").string()).code, 0);
  ASSERT_EQ(tinyRun((dir_ / "vtu").string(), "--format vtk").code, 0);
  ASSERT_TRUE(fs::exists(dir_ / "vtu" / "particles_000002.vtu"));
  const CliResult fromPly = run("surface ply --out sp --spacing 0.05 --backend cpu --smooth 2");
  ASSERT_EQ(fromPly.code, 0) << fromPly.err;
  const CliResult fromVtu = run("surface vtu --out sv --spacing 0.05 --backend cpu --smooth 2");
  ASSERT_EQ(fromVtu.code, 0) << fromVtu.err;
  EXPECT_NE(fromVtu.out.find("[3/3] surface_000002.ply"), std::string::npos) << fromVtu.out;
  for (const char* name : {"surface_000000.ply", "surface_000001.ply", "surface_000002.ply"}) {
    SCOPED_TRACE(name);
    const TriangleMesh a = loadTriangleMesh((dir_ / "sp" / name).string());
    const TriangleMesh b = loadTriangleMesh((dir_ / "sv" / name).string());
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    ASSERT_GT(a.triangles.size(), 100u);
    EXPECT_EQ(a.triangles, b.triangles);
    const MeshReport report = inspectMesh(a);
    const float extent =
        std::max({report.hi.x - report.lo.x, report.hi.y - report.lo.y, report.hi.z - report.lo.z});
    for (std::size_t i = 0; i < a.vertices.size(); ++i) {
      ASSERT_NEAR(a.vertices[i].x, b.vertices[i].x, 1e-6f * extent) << i;
      ASSERT_NEAR(a.vertices[i].y, b.vertices[i].y, 1e-6f * extent) << i;
      ASSERT_NEAR(a.vertices[i].z, b.vertices[i].z, 1e-6f * extent) << i;
    }
  }
  // progress goes to stderr (plain lines, as it is not a terminal), the phase table to stdout
  EXPECT_NE(fromVtu.err.find("frame 3/3 (100%) surface_000002.ply"), std::string::npos) << fromVtu.err;
  for (const char* line : {"phase", "check (read first)", "read ", "field ", "marching cubes", "smoothing",
                           "setup and copies", "write ", "total (wall clock)"})
    EXPECT_NE(fromVtu.out.find(std::string("  ") + line), std::string::npos) << line << "\n" << fromVtu.out;

  // one .vtu file; quiet keeps only the summary line
  const CliResult one =
      run("surface vtu/particles_000001.vtu --out one --spacing 0.05 --backend cpu --quiet");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_TRUE(fs::exists(dir_ / "one" / "surface_000001.ply")) << one.out;
  EXPECT_TRUE(one.err.empty()) << one.err;
  EXPECT_EQ(countLines(one.out), 1) << one.out;
  EXPECT_EQ(one.out.find("total (wall clock)"), std::string::npos) << one.out;
}

// a bad .vtu among good ones, or frames of both formats in one folder: exit 2, one line naming the file
// or the folder, nothing written
TEST_F(Cli, SurfaceBadVtuWritesNothing) {
  ASSERT_EQ(tinyRun((dir_ / "vtu").string(), "--format vtk").code, 0);
  const std::string good = readText(dir_ / "vtu" / "particles_000001.vtu");
  const std::size_t points = good.find("Name=\"Points\"");
  ASSERT_NE(points, std::string::npos);
  const std::size_t data = good.find('>', points) + 1;
  struct Case {
    const char* folder;
    std::string text, mention;
  } cases[] = {
      // the Points array cut mid-way (and the rest of the file kept): the base64 runs short
      {"cut",
       good.substr(0, (data + good.find("</DataArray>", data)) / 2) +
           good.substr(good.find("</DataArray>", data)),
       "is truncated"},
      {"nopoints", good.substr(0, good.find("<Points>")) + good.substr(good.find("</Points>") + 9),
       "no Points array"},
      {"twocomp", good.substr(0, points) + "NumberOfComponents=\"2\" " + good.substr(points),
       "component(s) per point"},
  };
  for (const Case& c : cases) {
    fs::create_directories(dir_ / c.folder);
    for (const char* name : {"particles_000000.vtu", "particles_000002.vtu"})
      fs::copy_file(dir_ / "vtu" / name, dir_ / c.folder / name);
    std::ofstream(dir_ / c.folder / "particles_000001.vtu", std::ios::binary) << c.text;
    const CliResult r =
        run(std::string("surface ") + c.folder + " --out out_" + c.folder + " --spacing 0.05 --backend cpu");
    EXPECT_EQ(r.code, 2) << c.folder << ": " << r.err;
    EXPECT_EQ(
        r.err.rfind("eddy: error: particle file '" + std::string(c.folder) + "/particles_000001.vtu': ", 0),
        0u)
        << r.err;
    EXPECT_NE(r.err.find(c.mention), std::string::npos) << c.folder << ": " << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / ("out_" + std::string(c.folder)))) << c.folder;
  }

  fs::create_directories(dir_ / "mixed");
  fs::copy_file(dir_ / "vtu" / "particles_000000.vtu", dir_ / "mixed" / "particles_000000.vtu");
  std::ofstream(dir_ / "mixed" / "particles_000001.ply")
      << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
         "end_header\n0 0 0\n";
  const CliResult mixed = run("surface mixed --out out_mixed --spacing 0.05 --backend cpu");
  EXPECT_EQ(mixed.code, 2);
  EXPECT_NE(mixed.err.find("'mixed' holds both .ply (1) and .vtu (1) particle frames"), std::string::npos)
      << mixed.err;
  EXPECT_FALSE(fs::exists(dir_ / "out_mixed"));
}

// `eddy run --surface`: a closed surface per frame from the device's particles, the same mesh as `eddy
// surface` builds from the written frames; with output.particles false, surfaces only; a surface section
// that cannot work is refused before anything is written
TEST_F(Cli, RunWritesSurfaces) {
  ASSERT_EQ(tinyRun((dir_ / "both").string(), "--surface").code, 0);
  for (const char* name : {"surface_000000.ply", "surface_000002.ply", "particles_000002.ply"})
    EXPECT_TRUE(fs::exists(dir_ / "both" / name)) << name;
  TriangleMesh inRun = loadTriangleMesh((dir_ / "both" / "surface_000002.ply").string());
  EXPECT_TRUE(inspectMesh(inRun).closed());
  EXPECT_GT(inRun.triangles.size(), 100u);
  ASSERT_EQ(run("surface both --out again --spacing 0.05 --backend cpu").code, 0);
  TriangleMesh after = loadTriangleMesh((dir_ / "again" / "surface_000002.ply").string());
  // the written frame is the device's particles to the last bit (binary floats), so the same mesh
  ASSERT_EQ(after.vertices.size(), inRun.vertices.size());
  EXPECT_EQ(after.triangles, inRun.triangles);

  const CliResult only =
      tinyRun((dir_ / "only").string(),
              "--set output.particles=false --set surface.method=yu-turk --set surface.format=obj");
  ASSERT_EQ(only.code, 0) << only.err;
  EXPECT_TRUE(fs::exists(dir_ / "only" / "surface_000001.obj"));
  EXPECT_FALSE(fs::exists(dir_ / "only" / "particles_000001.ply"));
  EXPECT_NE(readText(dir_ / "only" / "profile.json").find("\"surface\""), std::string::npos);

  // a level set for Houdini and Blender where OpenVDB is built in; a clear refusal where it is not
  const CliResult vdb = run("surface both --out levelsets --spacing 0.05 --backend cpu --format vdb");
  if (eddy::openVdbAvailable()) {
    ASSERT_EQ(vdb.code, 0) << vdb.err;
    EXPECT_GT(fs::file_size(dir_ / "levelsets" / "surface_000002.vdb"), 1000u);
  } else {
    EXPECT_EQ(vdb.code, 2);
    EXPECT_NE(vdb.err.find("no OpenVDB"), std::string::npos) << vdb.err;
    EXPECT_FALSE(fs::exists(dir_ / "levelsets"));
  }

  for (const char* bad :
       {"--set surface.cell=3", "--set surface.method=marching", "--set surface.smooth=-1"}) {
    const CliResult r = tinyRun((dir_ / "bad").string(), bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("surface"), std::string::npos) << bad << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << bad;
  }
}

// an MPM scene of water and sand: by default one surface per material, each around its own block only;
// with surface.groups "all" one surface around both
TEST_F(Cli, RunWritesASurfacePerMaterial) {
  std::ofstream(dir_ / "two.json") << R"({
    "solver": "mpm", "mpm": {"grid_resolution": 20},
    "fluid": {"spacing": 0.025}, "domain": {"min": [0, 0, 0], "max": [1, 0.5, 0.5]},
    "time": {"frames": 1},
    "emitters": [
      {"shape": {"type": "box", "center": [0.2, 0.15, 0.25], "half_extents": [0.1, 0.1, 0.1]}},
      {"shape": {"type": "box", "center": [0.7, 0.15, 0.25], "half_extents": [0.1, 0.1, 0.1]},
       "material": {"type": "sand"}}],
    "surface": {}})";
  const std::string args = "run two.json --backend cpu --quiet --set output.particles=false --out ";
  const CliResult apart = run(args + "apart");
  ASSERT_EQ(apart.code, 0) << apart.err;
  EXPECT_FALSE(fs::exists(dir_ / "apart" / "surface_000001.ply"));
  for (const char* group : {"water", "sand"}) {
    const fs::path file = dir_ / "apart" / ("surface_" + std::string(group) + "_000001.ply");
    ASSERT_TRUE(fs::exists(file)) << file;
    TriangleMesh mesh = loadTriangleMesh(file.string());
    EXPECT_TRUE(inspectMesh(mesh).closed()) << group;
    // each block's surface stays within two spacings of its own block, far from the other
    const float centre = group == std::string("water") ? 0.2f : 0.7f;
    for (const auto& v : mesh.vertices) ASSERT_LT(std::abs(v.x - centre), 0.1f + 0.05f) << group;
  }
  const CliResult together = run(args + "together --set surface.groups=all");
  ASSERT_EQ(together.code, 0) << together.err;
  TriangleMesh both = loadTriangleMesh((dir_ / "together" / "surface_000001.ply").string());
  EXPECT_TRUE(inspectMesh(both).closed());
  float lo = 1, hi = 0;
  for (const auto& v : both.vertices) lo = std::min(lo, v.x), hi = std::max(hi, v.x);
  EXPECT_LT(lo, 0.12f);
  EXPECT_GT(hi, 0.78f);
  EXPECT_FALSE(fs::exists(dir_ / "together" / "surface_water_000001.ply"));
  const CliResult bad = run(args + "bad --set surface.groups=emitter");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("surface/groups"), std::string::npos) << bad.err;
}

// `eddy bench --realtime`: a scene as written against the clock; a missing scene is bad input
TEST_F(Cli, BenchRealtimeReportsAgainstTheClock) {
  const CliResult r = run("bench --realtime --backend cpu --set time.frames=3 --set fluid.spacing=0.05");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line :
       {"s per simulated second", "frame ms      median", "% of the wall clock", "in 8 substeps"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " in " << r.out;
  const CliResult bad = run("bench --realtime --scene missing.json");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("missing.json"), std::string::npos) << bad.err;
}

TEST_F(Cli, MeshInfoBadMeshIsInputError) {
  std::ofstream(dir_ / "bad.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 nan\nf 1 2 3\n";
  const CliResult r = run("mesh-info bad.obj");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(countLines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("eddy: error: bad.obj:3: ", 0), 0u) << r.err;

  const CliResult missing = run("mesh-info no_such_mesh.ply");
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(missing.out.empty()) << missing.out;
  EXPECT_NE(missing.err.find("no_such_mesh.ply"), std::string::npos) << missing.err;

  const CliResult noFile = run("mesh-info");
  EXPECT_EQ(noFile.code, 2);
  EXPECT_TRUE(noFile.out.empty()) << noFile.out;
}

}  // namespace

namespace {

// --checkpoint-every and --resume: a run resumed from its checkpoint ends as the uninterrupted run
class CliResume : public Cli {
 protected:
  // the tiny dam break of tinyRun, `frames` frames, checkpoints every `every`
  CliResult checkpointedRun(const fs::path& out, int frames, int every) {
    return run("run " + quoted(sceneFile("dam_break.json")) + " --frames " + std::to_string(frames) +
               " --set fluid.spacing=0.05 --backend cpu --quiet --out " + quoted(out.string()) +
               " --checkpoint-every " + std::to_string(every));
  }
  CliResult resume(const fs::path& dir, const std::string& extra = "") {
    return run("run --resume " + quoted(dir.string()) + " --backend cpu --quiet " + extra);
  }
  // every file of a folder tree with its contents, to show that a refused resume wrote nothing
  std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = readText(e.path());
    return files;
  }
  // a run of 3 frames with a checkpoint at frame 2, as an interrupted run leaves its folder
  fs::path interruptedRun() {
    const fs::path dir = dir_ / "interrupted";
    EXPECT_EQ(checkpointedRun(dir, 3, 2).code, 0);
    return dir;
  }
  // expects exit status 2, the message parts, and the folder untouched
  void expectRefused(const fs::path& dir, const std::string& extra, const std::vector<std::string>& parts) {
    const auto before = snapshot(dir);
    const CliResult r = resume(dir, extra);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    for (const std::string& p : parts)
      EXPECT_NE(r.err.find(p), std::string::npos) << p << " not in: " << r.err;
    EXPECT_TRUE(snapshot(dir) == before) << "a refused resume changed the folder";
  }
};

TEST_F(CliResume, ResumedRunEqualsTheUninterruptedRun) {
  const fs::path straight = dir_ / "straight", resumed = dir_ / "resumed";
  ASSERT_EQ(checkpointedRun(straight, 6, 2).code, 0);
  // the last two checkpoints stay, written into OUT/checkpoints
  EXPECT_TRUE(fs::is_regular_file(straight / "checkpoints" / "checkpoint_000004.eddy"));
  EXPECT_TRUE(fs::is_regular_file(straight / "checkpoints" / "checkpoint_000006.eddy"));
  EXPECT_FALSE(fs::exists(straight / "checkpoints" / "checkpoint_000002.eddy"));

  // interrupted after frame 5: checkpoints at 2 and 4, caches and statistics up to 5
  ASSERT_EQ(checkpointedRun(resumed, 5, 2).code, 0);
  EXPECT_EQ(countLines(readText(resumed / "stats.jsonl")), 6);
  const CliResult r = resume(resumed, "--frames 6 --checkpoint-every 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("resumed at frame 4"), std::string::npos) << r.out;
  EXPECT_EQ(readText(resumed / "stats.jsonl"), readText(straight / "stats.jsonl"));
  for (int frame = 0; frame <= 6; ++frame) {
    const std::string name = "particles_00000" + std::to_string(frame) + ".ply";
    EXPECT_TRUE(readText(resumed / name) == readText(straight / name)) << name << " differs";
  }
  EXPECT_TRUE(fs::is_regular_file(resumed / "checkpoints" / "checkpoint_000006.eddy"));
  EXPECT_FALSE(fs::exists(resumed / "checkpoints" / "checkpoint_000002.eddy"));
  EXPECT_TRUE(readText(resumed / "checkpoints" / "checkpoint_000006.eddy") ==
              readText(straight / "checkpoints" / "checkpoint_000006.eddy"));
}

TEST_F(CliResume, SameSceneGivenAgainIsAccepted) {
  const fs::path dir = interruptedRun();
  const CliResult r =
      run("run " + quoted(sceneFile("dam_break.json")) + " --set fluid.spacing=0.05 --resume " +
          quoted(dir.string()) + " --frames 4 --backend cpu --quiet");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(countLines(readText(dir / "stats.jsonl")), 5);
}

TEST_F(CliResume, FolderWithoutCheckpointsIsRefused) {
  const fs::path dir = dir_ / "plain";
  ASSERT_EQ(tinyRun(dir.string()).code, 0);
  expectRefused(dir, "", {"--resume", "plain", "no checkpoint to resume from", "--checkpoint-every"});
}

TEST_F(CliResume, OtherSceneIsRefused) {
  const fs::path dir = interruptedRun();
  expectRefused(
      dir, quoted(sceneFile("dam_break.json")) + " --set fluid.spacing=0.04",
      {"checkpoint_000002.eddy", "different scene", "/fluid/spacing is 0.05 in the checkpoint, 0.04 here"});
  expectRefused(dir, "--set solver=wcsph",
                {"checkpoint_000002.eddy", "/solver is \"pbf\" in the checkpoint"});
}

TEST_F(CliResume, OtherEddyVersionIsRefused) {
  const fs::path dir = interruptedRun();
  const fs::path file = dir / "checkpoints" / "checkpoint_000002.eddy";
  eddy::Checkpoint c = eddy::readCheckpoint(file.string());
  c.eddyVersion = "0.0.9";
  std::ofstream(file, std::ios::binary | std::ios::trunc) << eddy::encodeCheckpoint(c);
  expectRefused(dir, "", {"checkpoint_000002.eddy", "written by eddy 0.0.9", eddy::kVersion});
}

TEST_F(CliResume, TruncatedCheckpointIsRefused) {
  const fs::path dir = interruptedRun();
  const fs::path file = dir / "checkpoints" / "checkpoint_000002.eddy";
  fs::resize_file(file, fs::file_size(file) - 100);
  expectRefused(dir, "", {"checkpoint_000002.eddy", "truncated checkpoint"});
}

TEST_F(CliResume, CorruptedCheckpointIsRefused) {
  const fs::path dir = interruptedRun();
  const fs::path file = dir / "checkpoints" / "checkpoint_000002.eddy";
  std::string bytes = readText(file);
  bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 1);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  expectRefused(dir, "", {"checkpoint_000002.eddy", "corrupted checkpoint"});
}

TEST_F(CliResume, StatisticsOfAnotherRunAreRefused) {
  const fs::path dir = interruptedRun();
  std::ofstream(dir / "stats.jsonl", std::ios::trunc) << "{\"frame\":0}\n";
  expectRefused(dir, "", {"stats.jsonl", "holds 1 frames", "checkpoint_000002.eddy"});
}

TEST_F(CliResume, NothingLeftToSimulateIsRefused) {
  const fs::path dir = interruptedRun();
  expectRefused(dir, "--frames 2", {"checkpoint_000002.eddy", "nothing left to simulate"});
}

// a new run into a folder replaces its output, so the earlier run's checkpoints must not survive to be
// resumed
TEST_F(CliResume, NewRunDeletesCheckpointsOfAnEarlierRun) {
  const fs::path dir = interruptedRun();
  ASSERT_TRUE(fs::is_regular_file(dir / "checkpoints" / "checkpoint_000002.eddy"));
  ASSERT_EQ(tinyRun(dir.string()).code, 0);
  EXPECT_FALSE(fs::exists(dir / "checkpoints" / "checkpoint_000002.eddy"));
  EXPECT_EQ(resume(dir).code, 2);
}

TEST_F(CliResume, ResumeAndOutTogetherAreAUsageError) {
  const fs::path dir = interruptedRun();
  const CliResult r = resume(dir, "--out elsewhere");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
  const CliResult zero = tinyRun((dir_ / "zero").string(), "--checkpoint-every 0");
  EXPECT_EQ(zero.code, 2);
  EXPECT_NE(zero.err.find("--checkpoint-every"), std::string::npos) << zero.err;
}

}  // namespace
