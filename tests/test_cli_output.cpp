// The eddy executable's output folders end to end: one run's files per folder, nothing touched on bad
// input, the size of a run told (and refused) before it starts, ParaView's collection, and `eddy surface`
// reading the run's own scene.
#include <eddy/checkpoint.h>
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/particle_files.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct CliResult {
  int code = -1;
  std::string out, err;
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

std::string damBreak() { return quoted(std::string(EDDY_SOURCE_DIR) + "/scenes/dam_break.json"); }

// every file of a folder tree with its contents
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = readText(e.path());
  return files;
}

// the names of the regular files of a folder tree
std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& [name, bytes] : snapshot(dir)) out.push_back(name);
  return out;
}

class CliOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("eddy_cli_output_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // eddy with args inside the temp folder; a run that does not end within `seconds` reads as exit 124
  CliResult run(const std::string& args, int seconds = 120) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd = "cd " + quoted(dir_.string()) + " && timeout " + std::to_string(seconds) + " " +
                            quoted(EDDY_CLI_PATH) + " " + args + " >" + quoted(out.string()) + " 2>" +
                            quoted(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(out);
    r.err = readText(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  // the dam break at 1152 particles: a run takes a fraction of a second
  CliResult tinyRun(const std::string& out, int frames, const std::string& extra = "", int seconds = 120) {
    return run("run " + damBreak() + " --frames " + std::to_string(frames) +
                   " --set fluid.spacing=0.05 --backend cpu --quiet --out " + quoted(out) + " " + extra,
               seconds);
  }

  fs::path dir_;
};

// A second run into a folder with fewer frames, another format, no surfaces or checkpoints leaves only its
// own files: the earlier run's frames, surfaces, collection, profile and checkpoints are gone, files that
// are not eddy's stay.
TEST_F(CliOutput, NewRunReplacesAnEarlierRunsFiles) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(tinyRun("out", 4, "--surface --format vtk --checkpoint-every 1").code, 0);
  ASSERT_TRUE(fs::exists(out / "surface_000004.ply"));
  ASSERT_TRUE(fs::exists(out / "checkpoints" / "checkpoint_000004.eddy"));
  std::ofstream(out / "notes.txt") << "mine";
  std::ofstream(out / "particles_final.ply") << "not a frame of eddy's";

  const CliResult r =
      run("run " + damBreak() +
          " --frames 2 --set fluid.spacing=0.05 --backend cpu --out out --set output.every=1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("removed"), std::string::npos) << r.out;
  const std::vector<std::string> expected = {
      "forces.csv",           "notes.txt",           "particles_000000.ply", "particles_000001.ply",
      "particles_000002.ply", "particles_final.ply", "profile.json",         "scene.json",
      "stats.jsonl"};
  EXPECT_EQ(names(out), expected);
  EXPECT_FALSE(fs::exists(out / "checkpoints"));  // the earlier run's folder, emptied, goes too
  EXPECT_EQ(readText(out / "notes.txt"), "mine");
  // `eddy surface` over the folder sees this run's three frames only
  const CliResult s = run("surface out --out surf --spacing 0.05 --backend cpu");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("3 frame(s)"), std::string::npos) << s.out;
}

// `eddy surface --out` into a folder of surfaces replaces them: the ones it does not rewrite go, and it
// says so
TEST_F(CliOutput, SurfaceReplacesTheSurfacesInItsFolder) {
  ASSERT_EQ(tinyRun("run", 2, "--surface").code, 0);
  std::ofstream(dir_ / "run" / "surface_000009.ply") << "an older reconstruction's";
  std::ofstream(dir_ / "run" / "surface_water_000001.obj") << "an older reconstruction's";
  const CliResult r = run("surface run --out run --spacing 0.05 --backend cpu --format obj");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("removed 5 earlier surface file(s)"), std::string::npos) << r.out;
  for (const char* gone : {"surface_000009.ply", "surface_water_000001.obj", "surface_000000.ply"})
    EXPECT_FALSE(fs::exists(dir_ / "run" / gone)) << gone;
  for (const char* kept : {"surface_000000.obj", "surface_000002.obj", "particles_000002.ply"})
    EXPECT_TRUE(fs::exists(dir_ / "run" / kept)) << kept;
}

// A surface cell that cannot work is found before the folder is touched: the message names the key, the
// earlier run's files and checkpoints stay and it can still be resumed; a fresh folder is not created.
TEST_F(CliOutput, BadSurfaceCellLeavesTheEarlierRunWhole) {
  ASSERT_EQ(tinyRun("out", 3, "--checkpoint-every 1").code, 0);
  const auto before = snapshot(dir_ / "out");
  const CliResult r = tinyRun("out", 2, "--surface --set surface.cell=1e-9");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/surface/cell"), std::string::npos) << r.err;
  EXPECT_TRUE(snapshot(dir_ / "out") == before) << "a refused run changed the folder";
  const CliResult resumed = run("run --resume out --frames 4 --backend cpu --quiet");
  EXPECT_EQ(resumed.code, 0) << resumed.err;

  const CliResult fresh = tinyRun("fresh", 2, "--surface --set surface.cell=1e-9");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "fresh"));
}

// one stray particle 3 km away in a later frame: `eddy surface` refuses before writing any frame
TEST_F(CliOutput, SurfaceStrayParticleWritesNothing) {
  ASSERT_EQ(tinyRun("run", 3).code, 0);
  const fs::path frame = dir_ / "run" / "particles_000002.ply";
  std::string bytes = readText(frame);
  const std::size_t body = bytes.find("end_header\n") + std::strlen("end_header\n");
  const float far[3] = {3000, 3000, 3000};
  std::memcpy(bytes.data() + body, far, sizeof far);
  std::ofstream(frame, std::ios::binary) << bytes;
  const CliResult r = run("surface run --out surf --spacing 0.05 --backend cpu");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("particles_000002.ply"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--cell"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "surf"));
}

// a checkpoint whose state holds a non-finite number (its checksum right) is refused, naming the attribute,
// not resumed into a blow-up
TEST_F(CliOutput, CheckpointWithNonFiniteStateIsRefused) {
  ASSERT_EQ(tinyRun("out", 2, "--checkpoint-every 2").code, 0);
  const std::string path = (dir_ / "out" / "checkpoints" / "checkpoint_000002.eddy").string();
  eddy::Checkpoint c = eddy::readCheckpoint(path);
  bool changed = false;
  for (eddy::AttributeState& a : c.state.attributes)
    if (a.name == "velocity") {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      std::memcpy(a.bytes.data() + 4 * 7, &nan, sizeof nan);
      changed = true;
    }
  ASSERT_TRUE(changed);
  fs::remove(path);
  eddy::writeCheckpoint((dir_ / "out" / "checkpoints").string(), c);
  const auto before = snapshot(dir_ / "out");
  const CliResult r = run("run --resume out --frames 4 --backend cpu --quiet");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("velocity"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not a finite number"), std::string::npos) << r.err;
  EXPECT_TRUE(snapshot(dir_ / "out") == before);
}

// --set with a number that is not finite (no JSON, so it once read as text: "expected a number, got
// string") names the override and says what is wrong with the value
TEST_F(CliOutput, NonFiniteSetIsNamed) {
  for (const char* set : {"fluid.spacing=nan", "fluid.spacing=1e400", "forces.gravity=[0,-Infinity,0]"}) {
    const CliResult r = tinyRun("out", 1, std::string("--set '") + set + "'");
    EXPECT_EQ(r.code, 2) << set;
    EXPECT_NE(r.err.find(set), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is not a finite number"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << set;
  }
}

// a particle file with a non-finite velocity or density (as `eddy render` reads them) is refused by name
TEST_F(CliOutput, ParticleFileWithNonFiniteAttributesIsRefused) {
  ASSERT_EQ(tinyRun("run", 1).code, 0);
  const fs::path frame = dir_ / "run" / "particles_000001.ply";
  const std::string good = readText(frame);
  const std::size_t body = good.find("end_header\n") + std::strlen("end_header\n");
  // four bytes a property (x y z vx vy vz density pressure id under PBF)
  std::size_t record = 0;
  for (std::size_t at = good.find("property "); at < body; at = good.find("property ", at + 1)) record += 4;
  for (int column : {3, 6}) {  // vx, density
    std::string bytes = good;
    const float inf = std::numeric_limits<float>::infinity();
    std::memcpy(bytes.data() + body + record * 5 + 4 * column, &inf, sizeof inf);
    const fs::path bad = dir_ / ("bad" + std::to_string(column) + ".ply");
    std::ofstream(bad, std::ios::binary) << bytes;
    try {
      (void)eddy::readParticleFrame(bad.string());
      ADD_FAILURE() << "column " << column << " accepted";
    } catch (const eddy::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("particle 5"), std::string::npos) << e.what();
    }
  }
}

// a VTU run gets particles.pvd: one DataSet per particle file with the frame's time from stats.jsonl; a
// resumed run's collection is the uninterrupted run's
TEST_F(CliOutput, VtuRunWritesACollectionWithTimes) {
  ASSERT_EQ(tinyRun("straight", 6, "--format vtk --set output.every=2").code, 0);
  const std::string pvd = readText(dir_ / "straight" / "particles.pvd");
  std::vector<double> statsTimes;
  std::ifstream stats(dir_ / "straight" / "stats.jsonl");
  for (std::string line; std::getline(stats, line);)
    statsTimes.push_back(nlohmann::json::parse(line)["time"]);
  ASSERT_EQ(statsTimes.size(), 7u);
  const std::regex entry("<DataSet timestep=\"([^\"]+)\" group=\"\" part=\"0\" file=\"([^\"]+)\"/>");
  std::vector<std::string> files;
  for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry); it != std::sregex_iterator(); ++it) {
    const std::string file = (*it)[2];
    files.push_back(file);
    const int frame = std::stoi(file.substr(10, 6));
    EXPECT_EQ(std::stod((*it)[1]), statsTimes[std::size_t(frame)]) << file;
    EXPECT_TRUE(fs::exists(dir_ / "straight" / file)) << file;
  }
  EXPECT_EQ(files, (std::vector<std::string>{"particles_000000.vtu", "particles_000002.vtu",
                                             "particles_000004.vtu", "particles_000006.vtu"}));
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos);

  ASSERT_EQ(tinyRun("resumed", 5, "--format vtk --set output.every=2 --checkpoint-every 2").code, 0);
  ASSERT_EQ(run("run --resume resumed --frames 6 --backend cpu --quiet").code, 0);
  EXPECT_EQ(readText(dir_ / "resumed" / "particles.pvd"), pvd);
  // PLY runs have no collection
  ASSERT_EQ(tinyRun("ply", 1).code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "ply" / "particles.pvd"));
}

// before it starts a run says how many particles, how much memory and how much disk it needs; the disk
// estimate is the particle files' real size
TEST_F(CliOutput, RunPrintsItsSizeBeforeStarting) {
  for (const char* format : {"ply", "vtk"}) {
    const std::string out = std::string("out_") + format;
    const CliResult r =
        run("run " + damBreak() + " --frames 2 --set fluid.spacing=0.05 --backend cpu --out " + out +
            " --format " + format);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::smatch m = [&] {
      std::smatch match;
      std::regex_search(r.out, match,
                        std::regex("eddy: 1152 particles, ([0-9.]+) (KiB|MiB) of memory.*3 particle files of "
                                   "([0-9.]+) KiB = ([0-9.]+) KiB on disk \\(.* free\\)"));
      return match;
    }();
    ASSERT_FALSE(m.empty()) << r.out;
    EXPECT_LT(r.out.find("1152 particles,"), r.out.find("eddy: 2 frames")) << "printed after the run";
    std::uintmax_t disk = 0;
    for (int frame = 0; frame <= 2; ++frame)
      disk += fs::file_size(
          dir_ / out /
          (std::string("particles_00000") + char('0' + frame) + (format[0] == 'p' ? ".ply" : ".vtu")));
    EXPECT_NEAR(std::stod(m[4]) * 1024, double(disk), 0.01 * double(disk)) << r.out;
    EXPECT_GT(std::stod(m[1]), 0);
  }
}

// a run whose particle files cannot fit the disk is refused before anything is written, naming what to
// change (the old behaviour: it starts and fills the disk)
TEST_F(CliOutput, RunTooLargeForTheDiskIsRefused) {
  ASSERT_EQ(tinyRun("out", 1).code, 0);
  const auto before = snapshot(dir_ / "out");
  // 1152 particles a file of 37 KB, 10^9 frames: 37 TB
  const CliResult r = tinyRun("out", 1000000000, "", 20);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("free"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/output/every"), std::string::npos) << r.err;
  EXPECT_TRUE(snapshot(dir_ / "out") == before);
  EXPECT_EQ(tinyRun("fresh", 1000000000, "", 20).code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "fresh"));
}

// a volume emitter's lattice too fine to sample is refused naming the scene file and the emitter's key
TEST_F(CliOutput, EmitterTooFineNamesItsKey) {
  const CliResult r =
      run("run " + damBreak() + " --set fluid.spacing=0.0005 --backend cpu --quiet --out fine", 20);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("dam_break.json: /emitters/0: "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "fine"));
}

// a resumed run is sized and refused the same way, before its folder is touched
TEST_F(CliOutput, ResumeTooLargeForTheDiskIsRefused) {
  ASSERT_EQ(tinyRun("out", 2, "--checkpoint-every 2").code, 0);
  const auto before = snapshot(dir_ / "out");
  const CliResult r = run("run --resume out --frames 1000000000 --backend cpu --quiet", 20);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("/output/every"), std::string::npos) << r.err;
  EXPECT_TRUE(snapshot(dir_ / "out") == before);
  const CliResult told = run("run --resume out --frames 4 --backend cpu", 60);
  EXPECT_EQ(told.code, 0) << told.err;
  EXPECT_NE(told.out.find("on disk ("), std::string::npos) << told.out;
}

// `eddy surface` over a run's folder takes the spacing and the surface section from its scene.json: the
// same meshes as the run built; a flag overrides the scene; without a scene.json --spacing is required
TEST_F(CliOutput, SurfaceReadsTheRunsScene) {
  ASSERT_EQ(tinyRun("run", 2, "--surface --set surface.method=sph-density --set surface.cell=0.5").code, 0);
  const CliResult r = run("surface run --out surf --backend cpu");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sph-density, spacing 0.05 m"), std::string::npos) << r.out;
  for (const char* name : {"surface_000000.ply", "surface_000002.ply"}) {
    const eddy::TriangleMesh inRun = eddy::loadTriangleMesh((dir_ / "run" / name).string());
    const eddy::TriangleMesh after = eddy::loadTriangleMesh((dir_ / "surf" / name).string());
    EXPECT_EQ(after.vertices.size(), inRun.vertices.size()) << name;
    EXPECT_EQ(after.triangles, inRun.triangles) << name;
  }
  const CliResult flagged = run("surface run --out coarse --backend cpu --cell 1 --method zhu-bridson");
  ASSERT_EQ(flagged.code, 0) << flagged.err;
  EXPECT_NE(flagged.out.find("zhu-bridson"), std::string::npos) << flagged.out;
  EXPECT_NE(readText(dir_ / "coarse" / "surface_000002.ply"), readText(dir_ / "surf" / "surface_000002.ply"));

  fs::create_directories(dir_ / "bare");
  fs::copy_file(dir_ / "run" / "particles_000001.ply", dir_ / "bare" / "particles_000001.ply");
  const CliResult bare = run("surface bare --out s --backend cpu");
  EXPECT_EQ(bare.code, 2);
  EXPECT_NE(bare.err.find("--spacing"), std::string::npos) << bare.err;
  EXPECT_FALSE(fs::exists(dir_ / "s"));

  std::ofstream(dir_ / "bare" / "scene.json") << R"({"fluid": {"spacing": -1}})";
  const CliResult badScene = run("surface bare --out s --backend cpu");
  EXPECT_EQ(badScene.code, 2);
  EXPECT_NE(badScene.err.find("/fluid/spacing"), std::string::npos) << badScene.err;
  EXPECT_FALSE(fs::exists(dir_ / "s"));
}

// An MPM run of several materials writes a surface per material type; `eddy surface` on its frames does the
// same, from each particle's material and the run's scene.json, and gives the run's own meshes.
TEST_F(CliOutput, SurfaceBuildsASurfacePerMaterialAsTheRunDoes) {
  const std::string scene = quoted(std::string(EDDY_SOURCE_DIR) + "/scenes/mpm_elastic_ball_water.json");
  ASSERT_EQ(run("run " + scene + " --frames 1 --surface --backend cpu --quiet --out run").code, 0);
  const CliResult r = run("surface run --out surf --backend cpu");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("a surface per material type"), std::string::npos) << r.out;
  for (const char* name : {"surface_water_000001.ply", "surface_elastic_000001.ply"}) {
    ASSERT_TRUE(fs::exists(dir_ / "run" / name)) << name;
    const eddy::TriangleMesh inRun = eddy::loadTriangleMesh((dir_ / "run" / name).string());
    const eddy::TriangleMesh after = eddy::loadTriangleMesh((dir_ / "surf" / name).string());
    EXPECT_GT(inRun.triangles.size(), 100u) << name;
    EXPECT_EQ(after.vertices.size(), inRun.vertices.size()) << name;
    EXPECT_EQ(after.triangles, inRun.triangles) << name;
  }
  EXPECT_FALSE(fs::exists(dir_ / "surf" / "surface_000001.ply"));

  // one surface of every particle where asked; it replaces the per-material ones in its folder
  const CliResult all = run("surface run --out surf --backend cpu --groups all --quiet");
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_TRUE(fs::exists(dir_ / "surf" / "surface_000001.ply"));
  EXPECT_FALSE(fs::exists(dir_ / "surf" / "surface_water_000001.ply"));

  // a frame without materials cannot be told apart: refused, naming the file, nothing written
  fs::create_directories(dir_ / "plain");
  fs::copy_file(dir_ / "run" / "scene.json", dir_ / "plain" / "scene.json");
  std::ofstream(dir_ / "plain" / "particles_000001.ply")
      << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
         "end_header\n0.1 0.1 0.1\n";
  const CliResult plain = run("surface plain --out s --backend cpu");
  EXPECT_EQ(plain.code, 2);
  EXPECT_NE(plain.err.find("particles_000001.ply' has no \"material\""), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find("--groups all"), std::string::npos) << plain.err;
  EXPECT_FALSE(fs::exists(dir_ / "s"));
}

}  // namespace
