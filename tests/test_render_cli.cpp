// `eddy render` on the command line: outputs checked before any drawing, numbers that are not finite
// refused, -q, one frame beside its run's scene, VTK frames with their speeds, MPM water surfaces, and
// videos in real time. Bad input exits 2, naming the flag or file.
#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>

#ifdef EDDY_WITH_RENDER
#include "render/gl_context.h"
#include "render/image.h"
#endif

namespace {

namespace fs = std::filesystem;

class RenderCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("eddy_render_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ranOk_ = eddy("run '" + std::string(EDDY_SOURCE_DIR) +
                  "/scenes/dam_break.json' --frames 4 --set fluid.spacing=0.05 --set output.every=2 "
                  "--backend cpu --quiet --out run") == 0;
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
  // skips the test where no OpenGL can be opened (the command would say so and exit 2)
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

fs::path RenderCli::dir_;
bool RenderCli::ranOk_ = false;

// a folder that takes no files, a video's missing folder, a file where the pictures' folder should be:
// refused before a frame is drawn, exit 2, nothing written
TEST_F(RenderCli, OutputsAreCheckedFirst) {
  EXPECT_EQ(eddy("render run --out /proc/eddy_pictures"), 2);
  EXPECT_NE(text("err.txt").find("--out"), std::string::npos) << text("err.txt");
  EXPECT_EQ(eddy("render run --out /proc"), 2);
  EXPECT_NE(text("err.txt").find("/proc"), std::string::npos) << text("err.txt");
  EXPECT_EQ(eddy("render run --video nowhere/movie.mp4"), 2);
  EXPECT_NE(text("err.txt").find("nowhere"), std::string::npos) << text("err.txt");
  EXPECT_EQ(eddy("render run --video /proc/movie.mp4"), 2);
  std::ofstream(dir_ / "a_file") << "x";
  EXPECT_EQ(eddy("render run --out a_file"), 2);
  EXPECT_FALSE(fs::exists(dir_ / "run" / "render"));
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
}

// nan and inf in any numeric flag of render and view: refused by name, exit 2
TEST_F(RenderCli, NumbersThatAreNotFiniteAreRefused) {
  for (const char* flags : {"--camera nan,1,1", "--camera 1,1,inf", "--target 0,-inf,0", "--fov nan",
                            "--radius nan", "--speed-top inf", "--fps nan", "--radius 1e999"}) {
    EXPECT_EQ(eddy(std::string("render run --size 32x24 --out bad ") + flags), 2) << flags;
    const std::string flag = std::string(flags).substr(0, std::string(flags).find(' '));
    EXPECT_NE(text("err.txt").find(flag), std::string::npos) << flags << ": " << text("err.txt");
    EXPECT_NE(text("err.txt").find("not a finite number"), std::string::npos)
        << flags << ": " << text("err.txt");
  }
  EXPECT_EQ(eddy("view --offscreen --frames 1 --speed nan"), 2);
  EXPECT_NE(text("err.txt").find("--speed"), std::string::npos) << text("err.txt");
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

// a particle file with an infinite velocity is refused, naming the file: it would stretch the colour map to
// "0 to inf m/s"
TEST_F(RenderCli, AParticleFileThatIsNotFiniteIsRefused) {
  eddy::HostParticles p;
  for (int i = 0; i < 4; ++i) {
    p.position.push_back({0.1f * float(i), 0.1f, 0.1f});
    p.velocity.push_back({0, 0, 0});
    p.density.push_back(1000);
    p.id.push_back(std::uint32_t(i));
  }
  p.velocity[2].x = std::numeric_limits<float>::infinity();
  fs::create_directories(dir_ / "blown");
  fs::copy_file(dir_ / "run" / "scene.json", dir_ / "blown" / "scene.json");
  std::ofstream(dir_ / "blown" / "particles_000000.ply", std::ios::binary) << eddy::encodePly(p);
  EXPECT_EQ(eddy("render blown --size 32x24"), 2);
  EXPECT_NE(text("err.txt").find("particles_000000.ply"), std::string::npos) << text("err.txt");
  EXPECT_NE(text("err.txt").find("velocity"), std::string::npos) << text("err.txt");
  EXPECT_FALSE(fs::exists(dir_ / "blown" / "render"));
}

TEST_F(RenderCli, TakesQuietAndOneFrameBesideItsScene) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  ASSERT_EQ(eddy("render run/particles_000002.ply -q --size 32x24 --out one"), 0) << text("err.txt");
  EXPECT_EQ(text("out.txt"), "");
  EXPECT_TRUE(fs::exists(dir_ / "one" / "frame_000002.png"));
}

// `eddy run --format vtk` frames carry their velocities: the colour map spans the run's real speeds
TEST_F(RenderCli, VtkFramesAreColouredByTheirSpeeds) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  ASSERT_EQ(eddy("run '" + std::string(EDDY_SOURCE_DIR) +
                 "/scenes/dam_break.json' --frames 3 --set fluid.spacing=0.05 --backend cpu --quiet "
                 "--format vtk --out vtk"),
            0);
  ASSERT_EQ(eddy("render vtk --size 32x24 --out vtk_pictures"), 0) << text("err.txt");
  const std::string out = text("out.txt");
  const std::size_t at = out.find("coloured by speed from 0 to ");
  ASSERT_NE(at, std::string::npos) << out;
  const double top = std::atof(out.c_str() + at + 28);
  std::printf("  colour map's top from the VTK frames: %.4g m/s\n", top);
  EXPECT_GT(top, 0.1);
}

// an MPM scene's surfaces per material: the water's surface_water_NNNNNN.ply is drawn as water
TEST_F(RenderCli, DrawsTheWaterSurfaceOfAnMpmScene) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  ASSERT_EQ(
      eddy("run '" + std::string(EDDY_SOURCE_DIR) +
           "/scenes/dam_break.json' --frames 1 --set fluid.spacing=0.05 --backend cpu --quiet --surface "
           "--out wet"),
      0);
  for (const char* n : {"000000", "000001"})
    fs::rename(dir_ / "wet" / ("surface_" + std::string(n) + ".ply"),
               dir_ / "wet" / ("surface_water_" + std::string(n) + ".ply"));
  ASSERT_EQ(eddy("render wet --mode surface --size 32x24 -q --out wet_pictures"), 0) << text("err.txt");
  EXPECT_TRUE(fs::exists(dir_ / "wet_pictures" / "frame_000000.png"));
  EXPECT_TRUE(fs::exists(dir_ / "wet_pictures" / "frame_000001.png"));
}

// frames written every 2nd frame of a 60 fps run play at 30 frames per second: as long as the time they
// show
TEST_F(RenderCli, VideosPlayInRealTime) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  if (std::system("command -v ffprobe >/dev/null 2>&1") != 0) GTEST_SKIP() << "no ffmpeg here";
  ASSERT_EQ(eddy("render run --size 32x24 -q --out every --video every.mp4"), 0) << text("err.txt");
  const std::string probe =
      "cd '" + dir_.string() +
      "' && ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate,nb_frames "
      "-of csv=p=0 every.mp4 >rate.txt";
  ASSERT_EQ(std::system(probe.c_str()), 0);
  const std::string rate = text("rate.txt");
  std::printf("  ffprobe: frame rate, frames: %s", rate.c_str());
  EXPECT_EQ(rate.substr(0, rate.find(',')), "30/1") << rate;
}

// the mean colour of the picture's middle fifth (both ways), 0-255 per channel
std::array<double, 3> middleColour(const eddy::render::Image& image) {
  std::array<double, 3> sum{};
  int n = 0;
  for (int y = 2 * image.height / 5; y < 3 * image.height / 5; ++y)
    for (int x = 2 * image.width / 5; x < 3 * image.width / 5; ++x, ++n)
      for (int c = 0; c < 3; ++c) sum[c] += image.rgb[3 * (std::size_t(y) * image.width + x) + c];
  for (double& v : sum) v /= n;
  return sum;
}

// A sand column's surface wraps its grains: surface mode draws the grains as sand (tan), not the surface
// as water over them (blue)
TEST_F(RenderCli, SandAloneIsDrawnAsSandInSurfaceMode) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  ASSERT_EQ(eddy("run '" + std::string(EDDY_SOURCE_DIR) +
                 "/scenes/mpm_sand_column.json' --frames 1 --surface --backend cpu --quiet --out sand"),
            0);
  ASSERT_TRUE(fs::exists(dir_ / "sand" / "surface_000001.ply"));
  ASSERT_EQ(eddy("render sand --mode surface --size 160x120 -q --out sand_pictures"), 0) << text("err.txt");
  const auto [r, g, b] =
      middleColour(eddy::render::readPng((dir_ / "sand_pictures" / "frame_000001.png").string()));
  std::printf("  the column's middle: %.0f %.0f %.0f\n", r, g, b);
  EXPECT_GT(r, b + 40) << "shaded as water";
}

// A run written as VTK draws an MPM scene's solids beside its water surface as a PLY run does
TEST_F(RenderCli, VtkRunsDrawTheirSolidsBesideTheSurfaceAsPlyRunsDo) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  const std::string scene = "'" + std::string(EDDY_SOURCE_DIR) + "/scenes/mpm_elastic_ball_water.json'";
  ASSERT_EQ(eddy("run " + scene + " --frames 1 --surface --backend cpu --quiet --out ply"), 0);
  ASSERT_EQ(eddy("run " + scene + " --frames 1 --surface --backend cpu --quiet --format vtk --out vtk"), 0);
  ASSERT_TRUE(fs::exists(dir_ / "vtk" / "particles_000001.vtu"));
  for (const char* run : {"ply", "vtk"})
    ASSERT_EQ(
        eddy(std::string("render ") + run + " --mode surface --size 160x120 -q --out " + run + "_pictures"),
        0)
        << text("err.txt");
  const eddy::render::Image fromPly =
      eddy::render::readPng((dir_ / "ply_pictures" / "frame_000001.png").string());
  const eddy::render::Image fromVtk =
      eddy::render::readPng((dir_ / "vtk_pictures" / "frame_000001.png").string());
  ASSERT_EQ(fromPly.rgb.size(), fromVtk.rgb.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < fromPly.rgb.size(); ++k) differ += fromPly.rgb[k] != fromVtk.rgb[k];
  std::printf("  %zu of %zu channel values differ\n", differ, fromPly.rgb.size());
  EXPECT_EQ(differ, 0u);
}

// a picture larger than the GL can draw is refused naming the command and the flag that asked for it
TEST_F(RenderCli, APictureTooLargeForTheGlNamesItsCommandAndFlag) {
  if (!haveGl()) GTEST_SKIP() << "no OpenGL here";
  const std::string scene = "'" + std::string(EDDY_SOURCE_DIR) + "/scenes/dam_break.json'";
  EXPECT_EQ(
      eddy(
          "run " + scene +
          " --frames 1 --set fluid.spacing=0.05 --backend cpu -q --render --render-size 100000x10 --out big"),
      2);
  EXPECT_NE(text("err.txt").find("run: --render-size 100000x10: each side must be 1 to"), std::string::npos)
      << text("err.txt");
  EXPECT_FALSE(fs::exists(dir_ / "big"));
  EXPECT_EQ(eddy("render run --size 100000x10 -q --out huge"), 2);
  EXPECT_NE(text("err.txt").find("render: --size 100000x10: each side must be 1 to"), std::string::npos)
      << text("err.txt");
  EXPECT_FALSE(fs::exists(dir_ / "huge"));
}

}  // namespace
