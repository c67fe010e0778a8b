// Keyframed colliders in whole simulations: a paddle moved by keyframes gives the particles of
// the same paddle moved by a prescribed velocity, in every solver, for a translation (the same arithmetic:
// equal bit for bit) and for a turn about y through two keyframe segments (the first segment the same
// arithmetic; the second starts from the stored orientation of its keyframe, which differs from the
// prescribed spin's by float round-off); and a mesh, moved and turned at once.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace eddy {
namespace {

struct Outcome {
  std::vector<Vec3> position;  // by particle id
  Real minX = 1e30f;           // the water's smallest x
  Real maxSpeed = 0;
};

Outcome simulate(const std::string& json, int frames) {
  SceneDesc scene = parseScene(json, "keyframed.json");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < frames; ++f) sim->advanceFrame();
  HostParticles hp;
  sim->copyParticles(hp);
  Outcome out;
  out.position.resize(hp.size());
  for (std::size_t i = 0; i < hp.size(); ++i) {
    out.position[hp.id[i]] = hp.position[i];
    out.minX = std::min(out.minX, hp.position[i].x);
    out.maxSpeed = std::max(out.maxSpeed, length(hp.velocity[i]));
  }
  return out;
}

// the largest distance between the two runs' positions of one particle
double largestGap(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.position.size(), b.position.size());
  double gap = 0;
  for (std::size_t i = 0; i < std::min(a.position.size(), b.position.size()); ++i)
    gap = std::max(gap, double(length(a.position[i] - b.position[i])));
  return gap;
}

// a 25 x 12.5 x 12.5 cm block of water (2000 particles at 1.25 cm) in a 50 x 25 x 12.5 cm tank, and a
// paddle 5 cm thick left of it, as high and deep as the tank; MPM at 64 cells along the tank, its water
// softer than real water (bulk modulus 1e4 Pa) so the test takes seconds
std::string pushScene(const std::string& solver, const std::string& paddle) {
  return R"({"solver": ")" + solver + R"(",
    "fluid": {"spacing": 0.0125},
    "domain": {"min": [0, 0, 0], "max": [0.5, 0.25, 0.125]},
    "mpm": {"grid_resolution": 64, "bulk_modulus": 1e4},
    "colliders": [{"name": "paddle", "shape": {"type": "box", "half_extents": [0.025, 0.125, 0.0625])" +
         paddle + R"(}],
    "emitters": [{"shape": {"type": "box", "center": [0.25, 0.0625, 0.0625],
                            "half_extents": [0.125, 0.0625, 0.0625]}}]})";
}

// 0.5 m/s along x from x = 0.0625: by frame 10 its face is 4.6 cm into where the water started
void pushSameBothWays(const std::string& solver) {
  const std::string moving = R"(, "center": [0.0625, 0.125, 0.0625]}, "linear_velocity": [0.5, 0, 0])";
  const std::string keyed = R"(}, "keyframes": [{"time": 0, "translation": [0.0625, 0.125, 0.0625]},
                                                {"time": 1, "translation": [0.5625, 0.125, 0.0625]}])";
  const int frames = 10;
  Outcome a = simulate(pushScene(solver, moving), frames), b = simulate(pushScene(solver, keyed), frames);
  double gap = largestGap(a, b);
  std::printf("  %s: %zu particles, paddle face at %.4f m, water from x = %.4f m, largest gap %.3g m\n",
              solver.c_str(), a.position.size(), 0.0875 + 0.5 * frames / 60.0, a.minX, gap);
  // the paddle pushed the water (it started at x = 0.13125)
  EXPECT_GT(a.minX, 0.165f);
  EXPECT_GT(b.minX, 0.165f);
  EXPECT_EQ(gap, 0.0);
}

TEST(KeyframedCollider, TranslationMatchesLinearVelocityPbf) { pushSameBothWays("pbf"); }
TEST(KeyframedCollider, TranslationMatchesLinearVelocityWcsph) { pushSameBothWays("wcsph"); }
TEST(KeyframedCollider, TranslationMatchesLinearVelocityMpm) { pushSameBothWays("mpm"); }

// a 30 x 30 cm tank with a 20 x 20 x 4 cm paddle standing in its middle, turning about y at 2 pi rad/s, and
// a 7.5 cm layer of water on both sides of it (2880 particles)
std::string stirScene(const std::string& solver, const std::string& paddle) {
  return R"({"solver": ")" + solver + R"(",
    "fluid": {"spacing": 0.0125},
    "domain": {"min": [0, 0, 0], "max": [0.3, 0.2, 0.3]},
    "mpm": {"grid_resolution": 48, "bulk_modulus": 1e4},
    "colliders": [{"name": "paddle", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.02])" +
         paddle + R"(}],
    "emitters": [{"shape": {"type": "box", "center": [0.15, 0.0375, 0.0625],
                            "half_extents": [0.15, 0.0375, 0.0625]}},
                 {"shape": {"type": "box", "center": [0.15, 0.0375, 0.2375],
                            "half_extents": [0.15, 0.0375, 0.0625]}}]})";
}

// 22.5 degrees per 1/16 s (times that floats hold exactly), two segments: the paddle passes the middle
// keyframe during frame 4 and has turned 42 degrees by the end of frame 7 (t = 0.117 s)
void stirSameBothWays(const std::string& solver, double tolerance) {
  const std::string spinning =
      R"(, "center": [0.15, 0.1, 0.15]}, "angular_velocity": [0, 6.283185307179586, 0])";
  const std::string keyed = R"(}, "keyframes": [
      {"time": 0, "translation": [0.15, 0.1, 0.15]},
      {"time": 0.0625, "translation": [0.15, 0.1, 0.15], "rotation": [0, 22.5, 0]},
      {"time": 0.125, "translation": [0.15, 0.1, 0.15], "rotation": [0, 45, 0]}])";
  for (int frames : {3, 7}) {
    Outcome a = simulate(stirScene(solver, spinning), frames), b = simulate(stirScene(solver, keyed), frames);
    double gap = largestGap(a, b);
    std::printf("  %s, %d frames: %zu particles, fastest %.3f m/s, largest gap %.3g m\n", solver.c_str(),
                frames, a.position.size(), a.maxSpeed, gap);
    EXPECT_GT(a.maxSpeed, 0.3f);  // the paddle's tips move at 0.63 m/s
    // within the first segment the same arithmetic; beyond it round-off, grown by the flow
    if (frames == 3)
      EXPECT_EQ(gap, 0.0);
    else
      EXPECT_LE(gap, tolerance);
  }
}

// measured: 1.5e-6 m (PBF), 1.2e-5 m (WCSPH), 1.2e-7 m (MPM) after 7 frames, against a
// spacing of 1.25e-2 m
TEST(KeyframedCollider, TurnMatchesAngularVelocityPbf) { stirSameBothWays("pbf", 1e-5); }
TEST(KeyframedCollider, TurnMatchesAngularVelocityWcsph) { stirSameBothWays("wcsph", 5e-5); }
TEST(KeyframedCollider, TurnMatchesAngularVelocityMpm) { stirSameBothWays("mpm", 1e-6); }

// a closed box mesh, 20 x 10 x 10 cm about its origin, as an OBJ file
std::string writeBoxMesh(const std::string& name) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(path);
  for (int i = 0; i < 8; ++i)
    out << "v " << (i & 1 ? 0.1 : -0.1) << " " << (i & 2 ? 0.05 : -0.05) << " " << (i & 4 ? 0.05 : -0.05)
        << "\n";
  // two triangles per face, corners numbered from 1 as x + 2 y + 4 z + 1
  out << "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\nf 1 5 7\nf 1 7 3\n"
         "f 2 4 8\nf 2 8 6\n";
  return path;
}

// the box mesh, 5 cm above a 40 x 10 x 40 cm layer of water (2000 particles at 2 cm), driven 5 cm into it at
// 2 m/s while it turns at 2 pi rad/s about y, with friction, so the spin moves the water too: a translation
// and a turn at once, the same arithmetic as the velocities within the first keyframe segment (1/16 s; the
// test runs three frames)
TEST(KeyframedCollider, MeshMatchesPrescribedVelocities) {
  std::string file = writeBoxMesh("eddy_keyframed_box.obj");
  auto scene = [&](const std::string& motion) {
    return R"({"solver": "pbf", "fluid": {"spacing": 0.02},
      "domain": {"min": [-0.2, -0.2, -0.2], "max": [0.2, 0.4, 0.2]},
      "colliders": [{"name": "block", "friction": 0.5,
                     "shape": {"type": "mesh", "file": ")" +
           file + R"(", "sdf_resolution": 32)" + motion + R"(}],
      "emitters": [{"shape": {"type": "box", "center": [0, -0.15, 0], "half_extents": [0.2, 0.05, 0.2]}}]})";
  };
  const std::string moving =
      R"(, "translation": [0, 0, 0]}, "linear_velocity": [0, -2, 0], "angular_velocity": [0, 6.283185307179586, 0])";
  const std::string keyed = R"(}, "keyframes": [{"time": 0, "translation": [0, 0, 0]},
      {"time": 0.0625, "translation": [0, -0.125, 0], "rotation": [0, 22.5, 0]}])";
  Outcome a = simulate(scene(moving), 3), b = simulate(scene(keyed), 3);
  double gap = largestGap(a, b);
  std::printf("  mesh: %zu particles, fastest %.3f m/s, largest gap %.3g m\n", a.position.size(), a.maxSpeed,
              gap);
  EXPECT_GT(a.maxSpeed, 0.5f);
  EXPECT_EQ(gap, 0.0);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace eddy
