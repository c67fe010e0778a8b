// Rigid bodies in what a run hands on: bodies.csv (pose, motion and the fluid's push, a row a frame) reads
// back as it was written, `eddy render` draws each body where the track puts it, exactly as a collider
// the scene places there, `eddy run --render` draws them where the simulation has them, and a track that
// is not one is refused, naming the file, the line and the column, before anything is drawn.
#include <eddy/body_track.h>
#include <eddy/error.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#ifdef EDDY_WITH_RENDER
#include "render/gl_context.h"
#include "render/image.h"
#endif

namespace {

namespace fs = std::filesystem;

class BodyPictures : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("eddy_body_pictures_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ranOk_ = eddy("run '" + std::string(EDDY_SOURCE_DIR) +
                  "/scenes/floating_boxes.json' --frames 3 --set fluid.spacing=0.03 "
                  "--set output.particles=true --backend cpu --quiet --out run") == 0;
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override { ASSERT_TRUE(ranOk_) << "eddy run failed: " << text("err.txt"); }
  static int eddy(const std::string& args) {
    const std::string cmd =
        "cd '" + dir_.string() + "' && '" + EDDY_CLI_PATH + "' " + args + " >out.txt 2>err.txt";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  static std::string text(const std::string& name) {
    std::ifstream in(dir_ / name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void copyRun(const std::string& to) {
    fs::remove_all(dir_ / to);
    fs::copy(dir_ / "run", dir_ / to, fs::copy_options::recursive);
    fs::remove_all(dir_ / to / "render");
  }
  static bool haveGl() {
#ifdef EDDY_WITH_RENDER
    try {
      eddy::render::HeadlessGl gl;
      return true;
    } catch (const eddy::InputError&) {
      return false;
    }
#else
    return false;
#endif
  }
  static fs::path dir_;
  static bool ranOk_;
};

fs::path BodyPictures::dir_;
bool BodyPictures::ranOk_ = false;

TEST_F(BodyPictures, BodiesCsvReadsBackAsWritten) {
  const eddy::BodyTrack t = eddy::readBodyTrack((dir_ / "run" / "bodies.csv").string());
  ASSERT_EQ(t.names, (std::vector<std::string>{"light", "half", "heavy"}));
  ASSERT_EQ(t.times.size(), 4u);  // frames 0 to 3
  for (std::size_t r = 0; r < t.times.size(); ++r) {
    EXPECT_NEAR(t.times[r], double(r) / 50, 1e-9);
    for (std::size_t b = 0; b < 3; ++b) {
      const eddy::Quat q = t.poses[r][b].orientation;
      EXPECT_NEAR(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1.0, 1e-5);
      EXPECT_TRUE(std::isfinite(t.loads[r][b].force.y) && std::isfinite(t.loads[r][b].torque.z));
    }
  }
  // frame 0 is the scene's pose, at rest, before any push; then the boxes fall
  EXPECT_NEAR(t.poses[0][1].center.x, 0.375, 1e-6);
  EXPECT_NEAR(t.poses[0][1].center.y, 0.21, 1e-6);
  EXPECT_EQ(t.loads[0][1].force.y, 0.0f);
  EXPECT_LT(t.poses[3][1].linearVelocity.y, -0.1f);
  EXPECT_LT(t.poses[3][1].center.y, 0.21f);
  EXPECT_EQ(t.rowAt(0.039), 2);
  EXPECT_EQ(t.rowAt(7.0), 3);
}

// the "half" box moved up and turned by bodies.csv is drawn exactly where a collider the scene places there
// is drawn; it is not where the scene started it
TEST_F(BodyPictures, RenderDrawsABodyWhereItsTrackPutsIt) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
#ifdef EDDY_WITH_RENDER
  const float angle = 30 * 3.14159265f / 180;
  const double qw = std::cos(angle / 2), qz = std::sin(angle / 2);
  const double px = 0.375, py = 0.30, pz = 0.15;
  // the track: "half" at (px, py, pz) turned about z; the others where the scene has them
  copyRun("moved");
  {
    const eddy::BodyTrack t = eddy::readBodyTrack((dir_ / "run" / "bodies.csv").string());
    std::ifstream in(dir_ / "run" / "bodies.csv");
    std::string header;
    std::getline(in, header);
    std::ofstream out(dir_ / "moved" / "bodies.csv");
    out << header << "\n";
    const double start[3][3] = {{0.125, 0.21, 0.15}, {px, py, pz}, {0.625, 0.21, 0.15}};
    for (double time : t.times) {
      out << time;
      for (int b = 0; b < 3; ++b) {
        out << "," << start[b][0] << "," << start[b][1] << "," << start[b][2];
        out << (b == 1 ? "," + std::to_string(qw) + ",0,0," + std::to_string(qz) : ",1,0,0,0");
        for (int k = 0; k < 12; ++k) out << ",0";
      }
      out << "\n";
    }
  }
  // the same pose given by the scene to a collider that is not a body
  copyRun("placed");
  fs::remove(dir_ / "placed" / "bodies.csv");
  {
    nlohmann::json scene;
    std::ifstream(dir_ / "run" / "scene.json") >> scene;
    nlohmann::json& half = scene["colliders"][1];
    half.erase("density");
    half["shape"]["center"] = {px, py, pz};
    half["shape"].erase("rotation");
    half["shape"]["quaternion"] = {qw, 0, 0, qz};
    std::ofstream(dir_ / "placed" / "scene.json") << scene.dump(2);
  }
  const std::string flags = " --size 160x120 -q --camera 0.375,0.5,1.2 --target 0.375,0.15,0.15";
  ASSERT_EQ(eddy("render moved --out pm" + flags), 0) << text("err.txt");
  ASSERT_EQ(eddy("render placed --out pp" + flags), 0) << text("err.txt");
  ASSERT_EQ(eddy("render run --out pr" + flags), 0) << text("err.txt");
  auto differing = [](const eddy::render::Image& a, const eddy::render::Image& b) {
    int n = 0;
    for (int y = 0; y < a.height; ++y)
      for (int x = 0; x < a.width; ++x)
        for (int c = 0; c < 3; ++c)
          if (std::abs(int(a.at(x, y)[c]) - int(b.at(x, y)[c])) > 2) {
            ++n;
            break;
          }
    return n;
  };
  for (const char* frame : {"frame_000000.png", "frame_000003.png"}) {
    const auto moved = eddy::render::readPng((dir_ / "pm" / frame).string());
    const auto placed = eddy::render::readPng((dir_ / "pp" / frame).string());
    const auto asRun = eddy::render::readPng((dir_ / "pr" / frame).string());
    const int pixels = moved.width * moved.height;
    EXPECT_LE(differing(moved, placed), pixels / 1000) << frame;
    EXPECT_GT(differing(moved, asRun), pixels / 50) << frame;  // the box is seen to move
  }
#endif
}

// `eddy run --render` draws the bodies where the simulation has them: its picture of the last frame is the
// one `eddy render` draws from that frame's file and bodies.csv
TEST_F(BodyPictures, RunRenderDrawsTheBodiesWhereTheyAre) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
#ifdef EDDY_WITH_RENDER
  const std::string look = " --set render.camera=[0.375,0.5,1.2] --set render.target=[0.375,0.15,0.15]";
  ASSERT_EQ(
      eddy("run '" + std::string(EDDY_SOURCE_DIR) +
           "/scenes/floating_boxes.json' --frames 12 --set fluid.spacing=0.03 --set render.frame=false "
           "--set output.particles=true --backend cpu --quiet --render --render-size 160x120 --out live" +
           look),
      0)
      << text("err.txt");
  ASSERT_EQ(eddy("render live --out again --size 160x120 -q --speed-top 1"), 0) << text("err.txt");
  // the same frame with the bodies where the scene started them
  fs::copy(dir_ / "live", dir_ / "unposed", fs::copy_options::recursive);
  fs::remove(dir_ / "unposed" / "bodies.csv");
  ASSERT_EQ(eddy("render unposed --out start --size 160x120 -q --speed-top 1"), 0) << text("err.txt");
  const auto live = eddy::render::readPng((dir_ / "live" / "render" / "frame_000012.png").string());
  const auto again = eddy::render::readPng((dir_ / "again" / "frame_000012.png").string());
  const auto start = eddy::render::readPng((dir_ / "start" / "frame_000012.png").string());
  int differ = 0, moved = 0;
  for (int y = 0; y < live.height; ++y)
    for (int x = 0; x < live.width; ++x) {
      bool d = false, m = false;
      for (int c = 0; c < 3; ++c) {
        d = d || std::abs(int(live.at(x, y)[c]) - int(again.at(x, y)[c])) > 8;
        m = m || std::abs(int(live.at(x, y)[c]) - int(start.at(x, y)[c])) > 8;
      }
      differ += d, moved += m;
    }
  std::printf("  pixels unlike eddy render's %d, unlike the bodies at their start %d, of %d\n", differ, moved,
              live.width * live.height);
  EXPECT_GT(moved, live.width * live.height / 100);  // the boxes have fallen onto the water
  EXPECT_LT(differ, moved / 20);
#endif
}

// a value that is not a number, or a body of the scene missing from the track: exit 2, the file, line and
// column (or the body) named, no picture drawn
TEST_F(BodyPictures, ATrackThatIsNotOneIsRefusedFirst) {
  copyRun("broken");
  {
    std::ifstream in(dir_ / "run" / "bodies.csv");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t line3 = all.find('\n', all.find('\n') + 1) + 1;
    std::size_t comma = all.find(',', all.find(',', line3) + 1);  // the third value of line 3
    all.insert(comma + 1, "x");
    std::ofstream(dir_ / "broken" / "bodies.csv") << all;
  }
#ifdef EDDY_WITH_RENDER
  EXPECT_EQ(eddy("render broken --out pb -q"), 2);
  EXPECT_NE(text("err.txt").find("bodies.csv: line 3, column 3 (light.y)"), std::string::npos)
      << text("err.txt");
  EXPECT_FALSE(fs::exists(dir_ / "pb"));
#endif
  EXPECT_THROW(eddy::readBodyTrack((dir_ / "broken" / "bodies.csv").string()), eddy::InputError);

  copyRun("renamed");
  {
    std::ifstream in(dir_ / "run" / "bodies.csv");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at; (at = all.find("half.")) != std::string::npos;) all.replace(at, 5, "hull.");
    std::ofstream(dir_ / "renamed" / "bodies.csv") << all;
  }
  if (haveGl()) {
    EXPECT_EQ(eddy("render renamed --out pn -q"), 2);
    EXPECT_NE(text("err.txt").find("'half'"), std::string::npos) << text("err.txt");
    EXPECT_FALSE(fs::exists(dir_ / "pn"));
  }
}

}  // namespace
