// Contacts of rigid bodies (sim/body_contacts.h): a box comes to rest on an obstacle and slides along it
// as far as Coulomb friction lets it, a container keeps a body inside, a box dropped on its edge lands on
// a face, a sliding sphere ends rolling, boxes pile up without passing through each other (boxes of one
// size too, offset), a sphere rests on a box, two spheres bounce off each other with the restitution
// asked for and keep their momentum, and runs with contacts repeat and resume to the bit. The fluid is a
// small block held behind a dam, so only gravity and the contacts move the bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "mesh_fixtures.h"
#include "sim/body_contact_detection.h"
#include "test_support.h"

namespace eddy {
namespace {

// a coarse WCSPH scene with these colliders and gravity; the fluid is held behind a dam at x = 0.8, the
// last collider
SceneDesc contactScene(const std::string& colliders, const std::string& gravity = "[0, -9.81, 0]") {
  return parseScene(R"({"solver": "wcsph", "wcsph": {"speed_of_sound": 30},
    "fluid": {"rest_density": 1000, "spacing": 0.04, "support_ratio": 2.0},
    "domain": {"min": [0, 0, 0], "max": [1.0, 0.6, 0.4]},
    "time": {"fps": 50, "frames": 50, "substeps": 4},
    "forces": {"gravity": )" +
                        gravity + R"(},
    "emitters": [{"type": "volume",
                  "shape": {"type": "box", "center": [0.92, 0.06, 0.06], "half_extents": [0.06, 0.06, 0.06]}}],
    "colliders": [)" + colliders +
                        R"(, {"name": "dam", "shape": {"type": "box", "center": [0.8, 0.15, 0.2],
                                  "half_extents": [0.01, 0.15, 0.2]}}]})",
                    "contacts.json");
}

std::string box(const std::string& center, const std::string& halfExtents,
                const std::string& rotation = "[0, 0, 0]") {
  return R"({"density": 500, "friction": 0.5, "shape": {"type": "box", "center": )" + center +
         R"(, "half_extents": )" + halfExtents + R"(, "rotation": )" + rotation + "}}";
}

Vec3 corner(Vec3 e, int k) { return {k & 1 ? e.x : -e.x, k & 2 ? e.y : -e.y, k & 4 ? e.z : -e.z}; }

// the lowest point of a box of half extents e at this pose
double lowest(const ColliderPose& p, Vec3 e) {
  double y = 1e30;
  for (int k = 0; k < 8; ++k) y = std::min(y, double((p.center + rotate(p.orientation, corner(e, k))).y));
  return y;
}

// how deep a corner of box a reaches into box b (0 where none does)
double cornerDepth(const ColliderPose& a, Vec3 ea, const ColliderPose& b, Vec3 eb) {
  double deepest = 0;
  for (int k = 0; k < 8; ++k) {
    Vec3 l = rotate(conjugate(b.orientation), a.center + rotate(a.orientation, corner(ea, k)) - b.center);
    double d = std::min({eb.x - std::fabs(l.x), eb.y - std::fabs(l.y), eb.z - std::fabs(l.z)});
    deepest = std::max(deepest, d);
  }
  return deepest;
}
double overlap(const ColliderPose& a, Vec3 ea, const ColliderPose& b, Vec3 eb) {
  return std::max(cornerDepth(a, ea, b, eb), cornerDepth(b, eb, a, ea));
}

// A box dropped 0.17 m onto a static box obstacle (top at y = 0.2) lands on it and stays there; without
// contacts with colliders it fell through to the floor
TEST(BodyContacts, ABoxComesToRestOnAnObstacle) {
  const Vec3 e{0.05f, 0.03f, 0.05f};
  SceneDesc scene = contactScene(R"({"name": "table", "shape": {"type": "box", "center": [0.4, 0.1, 0.2],
                                     "half_extents": [0.1, 0.1, 0.1]}}, )" +
                                 box("[0.4, 0.4, 0.2]", "[0.05, 0.03, 0.05]"));
  auto sim = createSimulation(scene, Backend::Cpu);
  double lowestEver = 1e30;
  for (int f = 0; f < 50; ++f) {
    sim->advanceFrame();
    lowestEver = std::min(lowestEver, lowest(sim->colliderPose(1), e));
  }
  ColliderPose p = sim->colliderPose(1);
  double bottom = lowest(p, e);
  std::printf("  bottom at rest %.6f m (table top 0.2), lowest on any frame %.6f m, speed %.2e m/s\n", bottom,
              lowestEver, double(length(p.linearVelocity)));
  EXPECT_NEAR(bottom, 0.2, 1e-4);
  EXPECT_GT(lowestEver, 0.2 - 1e-4);  // a 300th of the box's height
  EXPECT_LT(length(p.linearVelocity), 1e-3);
  EXPECT_NEAR(p.center.x, 0.4, 1e-4);
}

// A box dropped onto a table of its own footprint, its edges flush with the table's, rests there level:
// the box meets the box collider face against face, not corner by corner, whose nearest face is ambiguous
// at a shared edge
TEST(BodyContacts, ABoxRestsLevelOnATableOfItsOwnFootprint) {
  const Vec3 e{0.05f, 0.03f, 0.05f};
  SceneDesc scene = contactScene(R"({"name": "table", "shape": {"type": "box", "center": [0.4, 0.1, 0.2],
                                     "half_extents": [0.05, 0.1, 0.05]}}, )" +
                                 box("[0.4, 0.3, 0.2]", "[0.05, 0.03, 0.05]"));
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 100; ++f) sim->advanceFrame();
  ColliderPose p = sim->colliderPose(1);
  double up = rotate(p.orientation, Vec3{0, 1, 0}).y;
  std::printf("  bottom %.6f m (table top 0.2), up %.6f, moved %.2e m across, speed %.2e m/s\n", lowest(p, e),
              up, std::hypot(p.center.x - 0.4, p.center.z - 0.2), double(length(p.linearVelocity)));
  EXPECT_NEAR(lowest(p, e), 0.2, 1e-4);
  EXPECT_GT(up, 0.9999);
  EXPECT_LT(std::hypot(p.center.x - 0.4, p.center.z - 0.2), 1e-3);
  EXPECT_LT(length(p.linearVelocity), 1e-3);
}

// A box sent sliding at 1 m/s along a table (friction 0.5 on both, so 0.5 between them) stops after
// v^2 / (2 mu g) = 0.102 m, as Coulomb friction bounded by the normal impulse gives, still on the table
TEST(BodyContacts, ABoxSlidingAlongAnObstacleStopsWhereCoulombFrictionSays) {
  const Vec3 e{0.05f, 0.03f, 0.05f};
  SceneDesc scene = contactScene(R"({"name": "table", "friction": 0.5, "shape": {"type": "box",
                                     "center": [0.4, 0.1, 0.2], "half_extents": [0.3, 0.1, 0.15]}}, )"
                                 R"({"density": 500, "friction": 0.5, "linear_velocity": [1, 0, 0],
                                     "shape": {"type": "box", "center": [0.2, 0.23, 0.2],
                                     "half_extents": [0.05, 0.03, 0.05]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 25; ++f) sim->advanceFrame();
  ColliderPose p = sim->colliderPose(1);
  const double travel = 1.0 / (2 * 0.5 * 9.81);
  std::printf("  slid %.5f m (Coulomb %.5f m), bottom %.6f m, speed %.2e m/s\n", double(p.center.x) - 0.2,
              travel, lowest(p, e), double(length(p.linearVelocity)));
  EXPECT_NEAR(p.center.x - 0.2, travel, 1e-3);
  EXPECT_NEAR(lowest(p, e), 0.2, 1e-4);
  EXPECT_LT(length(p.linearVelocity), 1e-3);
}

// A sphere thrown at 2 m/s against the side of a container collider (the tank's wall at x = 0.05, inside
// the domain's at 0) bounces off it with its restitution and stays inside, as the domain keeps it
TEST(BodyContacts, AContainerKeepsABodyInside) {
  SceneDesc scene = contactScene(R"({"density": 500, "restitution": 0.5, "linear_velocity": [-2, 0, 0],
                                     "shape": {"type": "sphere", "center": [0.2, 0.2, 0.2], "radius": 0.04}}, )"
                                 R"({"name": "tank", "container": true, "shape": {"type": "box",
                                     "center": [0.5, 0.3, 0.2], "half_extents": [0.45, 0.3, 0.2]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  double nearest = 1e30;
  for (int f = 0; f < 10; ++f) {
    sim->advanceFrame();
    nearest = std::min(nearest, double(sim->colliderPose(0).center.x) - 0.05 - 0.04);
  }
  ColliderPose p = sim->colliderPose(0);
  std::printf("  nearest the tank's wall %.2e m, leaving at %.4f m/s\n", nearest, double(p.linearVelocity.x));
  EXPECT_GT(nearest, -1e-4);
  // the restitution of the sphere's 0.5 and the tank's 0 meet at 0.25 (the mean)
  EXPECT_NEAR(p.linearVelocity.x, 0.25 * 2, 0.02);
}

// A sphere sent sliding without spin along the floor at 0.7 m/s (friction 0.5) is turned by the friction
// impulse until it rolls: then v = omega r = 5/7 of 0.7 m/s, as a solid sphere's inertia 2/5 m r^2 gives
TEST(BodyContacts, ASlidingSphereEndsRollingAtFiveSeventhsOfItsSpeed) {
  SceneDesc scene = contactScene(R"({"density": 500, "friction": 0.5, "linear_velocity": [0.7, 0, 0],
                                     "shape": {"type": "sphere", "center": [0.2, 0.04, 0.2], "radius": 0.04}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  ColliderPose p = sim->colliderPose(0);
  std::printf("  v %.5f m/s, -omega r %.5f m/s (5/7 x 0.7 = 0.5), centre at %.6f m\n",
              double(p.linearVelocity.x), -double(p.angularVelocity.z) * 0.04, double(p.center.y));
  EXPECT_NEAR(p.linearVelocity.x, 0.5, 2e-3);
  EXPECT_NEAR(-p.angularVelocity.z * 0.04, 0.5, 2e-3);
  EXPECT_NEAR(p.center.y, 0.04, 1e-4);
}

// Three boxes of one size stacked 5 mm off each other's axis stand for 3 s: they touch over the overlap
// of their faces, whose corners are partly crossings of the two boxes' edges that no box corner marks
TEST(BodyContacts, ThreeBoxesOfOneSizeStackedOffsetStand) {
  const Vec3 e{0.05f, 0.03f, 0.05f};
  SceneDesc scene = contactScene(box("[0.4, 0.05, 0.2]", "[0.05, 0.03, 0.05]") + ", " +
                                 box("[0.405, 0.15, 0.2]", "[0.05, 0.03, 0.05]") + ", " +
                                 box("[0.4, 0.25, 0.195]", "[0.05, 0.03, 0.05]"));
  auto sim = createSimulation(scene, Backend::Cpu);
  double deepest = 0, tilt = 0;
  for (int f = 0; f < 150; ++f) {
    sim->advanceFrame();
    for (std::size_t i = 0; i < 3; ++i) {
      ColliderPose p = sim->colliderPose(i);
      tilt = std::max(tilt, 1 - std::fabs(double(rotate(p.orientation, Vec3{0, 1, 0}).y)));
      if (i > 0) deepest = std::max(deepest, overlap(p, e, sim->colliderPose(i - 1), e));
    }
  }
  std::printf("  deepest overlap %.2e m, largest 1 - cos(tilt) %.2e\n", deepest, tilt);
  EXPECT_LT(deepest, 1e-4);
  const double x[3] = {0.4, 0.405, 0.4}, z[3] = {0.2, 0.2, 0.195};
  for (std::size_t i = 0; i < 3; ++i) {
    ColliderPose p = sim->colliderPose(i);
    std::printf("  box %zu: centre %.6f m (expected %.2f), moved %.5f m across, speed %.2e m/s\n", i,
                double(p.center.y), 0.03 + 0.06 * double(i), std::hypot(p.center.x - x[i], p.center.z - z[i]),
                double(length(p.linearVelocity)));
    EXPECT_NEAR(p.center.y, 0.03 + 0.06 * double(i), 1e-4) << i;
    EXPECT_LT(std::hypot(p.center.x - x[i], p.center.z - z[i]), 2e-3) << i;
  }
  EXPECT_LT(tilt, 1e-4);  // none tipped: cos(tilt) > 0.9999
}

// A box dropped on its edge, turned 30 degrees about z, tips onto a face: the contact impulse turns it
TEST(BodyContacts, ABoxDroppedOnItsEdgeLandsOnAFace) {
  const Vec3 e{0.05f, 0.03f, 0.05f};
  SceneDesc scene = contactScene(R"({"density": 500, "friction": 0.5, "shape": {"type": "box",
                                     "center": [0.4, 0.1, 0.2], "half_extents": [0.05, 0.03, 0.05],
                                     "rotation": [0, 0, 30]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 75; ++f) sim->advanceFrame();
  ColliderPose p = sim->colliderPose(0);
  Vec3 up = rotate(p.orientation, Vec3{0, 1, 0});
  std::printf("  the box's y axis %.4f %.4f %.4f, centre at %.5f m, speed %.2e m/s\n", double(up.x),
              double(up.y), double(up.z), double(p.center.y), double(length(p.linearVelocity)));
  EXPECT_GT(std::fabs(up.y), 0.9999);  // flat on a broad face (0.866 on its edge)
  EXPECT_NEAR(p.center.y, e.y, 1e-4);
  EXPECT_NEAR(lowest(p, e), 0, 1e-4);
  EXPECT_LT(length(p.linearVelocity), 1e-3);
}

// Three boxes, narrower upwards, dropped in a column onto the floor, pile up: at rest their centres are
// at 0.03, 0.09 and 0.15 m (each 0.06 m high), and on no frame does one reach into another by more than
// 0.1 mm; without contacts between bodies all three fell to the floor
TEST(BodyContacts, ThreeBoxesDroppedInAColumnPileUp) {
  const Vec3 e[3] = {{0.08f, 0.03f, 0.08f}, {0.05f, 0.03f, 0.05f}, {0.03f, 0.03f, 0.03f}};
  SceneDesc scene = contactScene(box("[0.4, 0.06, 0.2]", "[0.08, 0.03, 0.08]") + ", " +
                                 box("[0.4, 0.17, 0.2]", "[0.05, 0.03, 0.05]") + ", " +
                                 box("[0.4, 0.28, 0.2]", "[0.03, 0.03, 0.03]"));
  auto sim = createSimulation(scene, Backend::Cpu);
  double deepest = 0;
  for (int f = 0; f < 50; ++f) {
    sim->advanceFrame();
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = i + 1; j < 3; ++j)
        deepest = std::max(deepest, overlap(sim->colliderPose(i), e[i], sim->colliderPose(j), e[j]));
  }
  std::printf("  deepest overlap on any frame %.2e m\n", deepest);
  EXPECT_LT(deepest, 1e-4);
  const double expected[3] = {0.03, 0.09, 0.15};
  for (std::size_t i = 0; i < 3; ++i) {
    ColliderPose p = sim->colliderPose(i);
    std::printf("  box %zu: centre %.6f m (expected %.2f), x %.5f, speed %.2e m/s\n", i, double(p.center.y),
                expected[i], double(p.center.x), double(length(p.linearVelocity)));
    EXPECT_NEAR(p.center.y, expected[i], 5e-4) << i;
    EXPECT_NEAR(p.center.x, 0.4, 1e-3) << i;
    EXPECT_LT(length(p.linearVelocity), 1e-3) << i;
  }
}

// A sphere dropped onto a box lying on the floor comes to rest on the box's top face, 1 cm off its centre:
// the box's centre at its half height, the sphere's at the box's height plus its radius; and a second run
// repeats the first to the bit (the contacts are found in parallel, each pair into slots of its own)
TEST(BodyContacts, ASphereComesToRestOnABoxAndRunsRepeatToTheBit) {
  const std::string scene = box("[0.4, 0.04, 0.2]", "[0.06, 0.03, 0.06]") +
                            R"(, {"density": 500, "friction": 0.5, "shape": {"type": "sphere",
                                  "center": [0.41, 0.15, 0.2], "radius": 0.03}})";
  auto a = createSimulation(contactScene(scene), Backend::Cpu);
  auto b = createSimulation(contactScene(scene), Backend::Cpu);
  for (int f = 0; f < 50; ++f) a->advanceFrame(), b->advanceFrame();
  const ColliderPose boxPose = a->colliderPose(0), ball = a->colliderPose(1);
  std::printf(
      "  box centre %.6f m (expected 0.03), sphere centre %.6f m (expected 0.09) at x %.5f, speeds "
      "%.2e %.2e m/s\n",
      double(boxPose.center.y), double(ball.center.y), double(ball.center.x),
      double(length(boxPose.linearVelocity)), double(length(ball.linearVelocity)));
  EXPECT_NEAR(boxPose.center.y, 0.03, 1e-4);
  EXPECT_NEAR(ball.center.y, 0.06 + 0.03, 1e-4);
  EXPECT_NEAR(ball.center.x, 0.41, 1e-3);  // it neither rolled off nor slid
  EXPECT_LT(length(boxPose.linearVelocity), 1e-3);
  EXPECT_LT(length(ball.linearVelocity), 1e-3);
  for (std::size_t i = 0; i < 2; ++i) {
    const ColliderPose pa = a->colliderPose(i), pb = b->colliderPose(i);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ((&pa.center.x)[k], (&pb.center.x)[k]) << i;
      EXPECT_EQ((&pa.linearVelocity.x)[k], (&pb.linearVelocity.x)[k]) << i;
      EXPECT_EQ((&pa.angularVelocity.x)[k], (&pb.angularVelocity.x)[k]) << i;
    }
    EXPECT_EQ(pa.orientation.w, pb.orientation.w) << i;
    EXPECT_EQ(pa.orientation.x, pb.orientation.x) << i;
    EXPECT_EQ(pa.orientation.y, pb.orientation.y) << i;
    EXPECT_EQ(pa.orientation.z, pb.orientation.z) << i;
  }
}

// Two spheres, one twice as dense, meet head on at 2 m/s without gravity: they part at e = 0.5 times
// that, and the momentum stays what it was (the light one goes back at 1 m/s, the heavy one stops)
TEST(BodyContacts, TwoSpheresBounceWithTheirRestitutionAndKeepTheirMomentum) {
  auto sphere = [](const std::string& density, const std::string& x, const std::string& v) {
    return R"({"density": )" + density + R"(, "restitution": 0.5, "linear_velocity": [)" + v +
           R"(, 0, 0], "shape": {"type": "sphere", "center": [)" + x + R"(, 0.35, 0.2], "radius": 0.04}})";
  };
  SceneDesc scene =
      contactScene(sphere("500", "0.25", "1") + ", " + sphere("1000", "0.55", "-1"), "[0, 0, 0]");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  ColliderPose a = sim->colliderPose(0), b = sim->colliderPose(1);
  const double ma = 500, mb = 1000;  // per unit volume: the same volume
  double momentum = ma * a.linearVelocity.x + mb * b.linearVelocity.x;
  double parting = b.linearVelocity.x - a.linearVelocity.x;
  std::printf("  after: %.5f and %.5f m/s, parting at %.5f m/s (0.5 x 2), momentum %.4f (before -500)\n",
              double(a.linearVelocity.x), double(b.linearVelocity.x), parting, momentum);
  EXPECT_NEAR(parting, 1.0, 1e-3);
  EXPECT_NEAR(momentum, -500, 0.05);
  EXPECT_NEAR(a.linearVelocity.x, -1, 1e-3);
  EXPECT_LT(length(b.linearVelocity), 1e-3);
  EXPECT_NEAR(a.center.y, 0.35, 1e-5);
}

// a run with bodies in contact repeats to the bit, and a run resumed from its saved state goes on exactly
// as the one it was saved from
TEST(BodyContacts, RunsWithContactsRepeatAndResumeToTheBit) {
  SceneDesc scene = contactScene(box("[0.4, 0.06, 0.2]", "[0.08, 0.03, 0.08]", "[0, 0, 10]") + ", " +
                                 box("[0.41, 0.17, 0.2]", "[0.05, 0.03, 0.05]") + ", " +
                                 box("[0.39, 0.28, 0.21]", "[0.03, 0.03, 0.03]", "[20, 0, 0]"));
  auto a = createSimulation(scene, Backend::Cpu);
  auto b = createSimulation(scene, Backend::Cpu);
  auto c = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 15; ++f) a->advanceFrame(), b->advanceFrame();
  c->restoreState(a->saveState());
  for (int f = 0; f < 15; ++f) a->advanceFrame(), b->advanceFrame(), c->advanceFrame();
  for (std::size_t i = 0; i < 3; ++i) {
    ColliderPose pa = a->colliderPose(i);
    for (auto* other : {b.get(), c.get()}) {
      ColliderPose po = other->colliderPose(i);
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ((&pa.center.x)[k], (&po.center.x)[k]) << i;
        EXPECT_EQ((&pa.linearVelocity.x)[k], (&po.linearVelocity.x)[k]) << i;
        EXPECT_EQ((&pa.angularVelocity.x)[k], (&po.angularVelocity.x)[k]) << i;
      }
      EXPECT_EQ(pa.orientation.w, po.orientation.w) << i;
      EXPECT_EQ(pa.orientation.x, po.orientation.x) << i;
      EXPECT_EQ(pa.orientation.z, po.orientation.z) << i;
    }
  }
  // the bodies did touch: the middle box rests on the bottom one (the top one, dropped on its edge,
  // tumbles off)
  EXPECT_NEAR(a->colliderPose(1).center.y, 0.09, 1e-3);
}

// A box held to heave ("x z rx ry rz"), thrown sideways and spinning, onto the floor: it keeps its x, z
// to the bit and its orientation, and only falls; a box hinged about z ("x y z rx ry"), set spinning about
// all three axes, keeps its place to the bit and its z axis, and turns about z alone
TEST(BodyContacts, LocksHoldWhatTheyName) {
  auto locked = [](const std::string& locks, const std::string& spin) {
    return R"({"density": 500, "friction": 0.5, "locks": ")" + locks + R"(", "angular_velocity": )" + spin +
           R"(, "linear_velocity": [0.8, 0, -0.5], "shape": {"type": "box", "center": [0.3, 0.3, 0.2],
           "half_extents": [0.05, 0.03, 0.05], "rotation": [0, 0, 20]}})";
  };
  SceneDesc scene =
      contactScene(locked("x z rx ry rz", "[2, 3, 4]") + ", " + locked("x, y, z, rx, ry", "[2, 3, 4]"));
  scene.colliders[1].shape.center = {0.6f, 0.3f, 0.2f};
  auto sim = createSimulation(scene, Backend::Cpu);
  const ColliderPose heave0 = sim->colliderPose(0), hinge0 = sim->colliderPose(1);
  for (int f = 0; f < 25; ++f) sim->advanceFrame();
  const ColliderPose heave = sim->colliderPose(0), hinge = sim->colliderPose(1);
  EXPECT_EQ(heave.center.x, heave0.center.x);
  EXPECT_EQ(heave.center.z, heave0.center.z);
  // the orientation is renormalised each substep: kept to rounding
  EXPECT_NEAR(heave.orientation.w, heave0.orientation.w, 1e-6);
  EXPECT_NEAR(heave.orientation.z, heave0.orientation.z, 1e-6);
  EXPECT_EQ(length(heave.angularVelocity), 0.0f);
  EXPECT_LT(heave.center.y, 0.1f);  // fell to the floor
  EXPECT_EQ(hinge.center.x, hinge0.center.x);
  EXPECT_EQ(hinge.center.y, hinge0.center.y);
  EXPECT_EQ(hinge.center.z, hinge0.center.z);
  const Vec3 axis = rotate(hinge.orientation, Vec3{0, 0, 1});
  std::printf("  hinge: z axis (%.2e, %.2e, %.7f), turned by %.3f rad about z\n", double(axis.x),
              double(axis.y), double(axis.z),
              2 * std::acos(std::min(1.0, double(std::fabs(hinge.orientation.w)))));
  EXPECT_NEAR(axis.z, 1.0, 1e-5);
  EXPECT_EQ(hinge.angularVelocity.x, 0.0f);
  EXPECT_EQ(hinge.angularVelocity.y, 0.0f);
  EXPECT_NEAR(hinge.angularVelocity.z, 4.0, 1e-3);  // nothing turns it: it spins on
}

// a sphere held to heave, driven into along x by a moving box collider: nothing moves it along x, and it
// stays finite (an impulse along a held axis divided by a zero effective mass)
TEST(BodyContacts, APushAlongAHeldAxisMovesNothing) {
  SceneDesc scene = contactScene(
      R"({"density": 500, "locks": "x z rx ry rz", "shape": {"type": "sphere", "center": [0.5, 0.05, 0.2],
          "radius": 0.05}}, {"name": "ram", "linear_velocity": [-1.5, 0, 0], "shape": {"type": "box",
          "center": [0.7, 0.1, 0.2], "half_extents": [0.05, 0.1, 0.1]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 10; ++f) {
    sim->advanceFrame();
    const ColliderPose p = sim->colliderPose(0);
    ASSERT_TRUE(std::isfinite(p.center.y) && std::isfinite(p.linearVelocity.y)) << "frame " << f;
    EXPECT_EQ(p.center.x, 0.5f) << "frame " << f;
  }
}

TEST(BodyContacts, LocksThatAreNotLocksAreRefusedByName) {
  for (const char* locks : {"x w", "x x", "rz rz", "xy"})
    test::expectInputError(
        [&] {
          contactScene(
              R"({"density": 500, "locks": ")" + std::string(locks) +
              R"(", "shape": {"type": "box", "center": [0.3, 0.3, 0.2], "half_extents": [0.05, 0.03, 0.05]}})");
        },
        {"/colliders/0/locks", "rx"});
  test::expectInputError(
      [&] {
        contactScene(
            R"({"locks": "x", "shape": {"type": "box", "center": [0.3, 0.3, 0.2], "half_extents": [0.05, 0.03, 0.05]}})");
      },
      {"/colliders/0/locks", "only a rigid body"});
}

// two boxes of one size, one exactly on the other: the clipped face is the whole face, its four corners once
// each (an edge ending on a side of the other face once counted that corner again, filled the eight places
// with copies and dropped a real corner)
TEST(BodyContacts, AlignedBoxesTouchAtTheFourCornersOfTheirFace) {
  using namespace cpu;
  ColliderDesc d;
  d.shape.type = "box";
  d.shape.halfExtents = {0.05f, 0.05f, 0.05f};
  ColliderData shape = makeColliderData(d);
  RigidBody lower, upper;
  lower.position = {0, 0.05f, 0};
  upper.position = {0, 0.1499f, 0};  // 0.1 mm into the lower one
  BoxContacts c = boxContacts(shape, upper, shape, lower);
  ASSERT_EQ(c.count, 4);
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sz = -1; sz <= 1; sz += 2) {
      int found = 0;
      for (int k = 0; k < c.count; ++k)
        if (std::abs(c.point[k].x - 0.05f * sx) < 1e-6f && std::abs(c.point[k].z - 0.05f * sz) < 1e-6f)
          ++found;
      EXPECT_EQ(found, 1) << "corner " << sx << ", " << sz;
    }
  for (int k = 0; k < c.count; ++k) EXPECT_NEAR(c.depth[k], 1e-4, 1e-6) << k;
  EXPECT_NEAR(c.normal.y, 1, 1e-6);
}

// A capsule and a cylinder dropped lying down, and a cylinder standing on a cap, come to rest on the floor
// where their shapes say: the lying ones with their axes at the radius, level, the standing one at its
// half height, upright. The capsule rests on its end balls, the lying cylinder on its rims' lowest points
// (the twelve rim samples alone would leave it on a corner 0.5 mm lower and free to rock)
TEST(BodyContacts, CapsulesAndCylindersRestOnTheFloorAsTheirShapesSay) {
  SceneDesc scene = contactScene(
      R"({"density": 500, "friction": 0.5, "shape": {"type": "capsule", "center": [0.15, 0.15, 0.2],
          "radius": 0.04, "half_height": 0.08, "rotation": [90, 0, 0]}},
         {"density": 500, "friction": 0.5, "shape": {"type": "cylinder", "center": [0.35, 0.2, 0.2],
          "radius": 0.04, "half_height": 0.1, "rotation": [90, 0, 0]}},
         {"density": 500, "friction": 0.5, "shape": {"type": "cylinder", "center": [0.6, 0.25, 0.2],
          "radius": 0.05, "half_height": 0.06}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 75; ++f) sim->advanceFrame();
  const double rest[3] = {0.04, 0.04, 0.06};
  const double upright[3] = {0, 0, 1};
  for (std::size_t b = 0; b < 3; ++b) {
    ColliderPose p = sim->colliderPose(b);
    Vec3 axis = rotate(p.orientation, Vec3{0, 1, 0});
    std::printf("  %s: centre at %.6f m (%.2f expected), axis %.5f %.5f %.5f, speed %.2e m/s\n",
                scene.colliders[b].shape.type.c_str(), double(p.center.y), rest[b], double(axis.x),
                double(axis.y), double(axis.z), double(length(p.linearVelocity)));
    EXPECT_NEAR(p.center.y, rest[b], 1e-4) << b;
    EXPECT_NEAR(std::fabs(axis.y), upright[b], 1e-4) << b;
    EXPECT_LT(length(p.linearVelocity), 1e-3) << b;
  }
}

// A box made of twelve triangles whose file's origin lies 0.1 m beside it, dropped on its edge, moves as
// the analytic box dropped the same way 0.35 m further on: the body turns about its centre of mass, not
// about the mesh's origin, and the pose a run reports is the origin's, which keys the mesh's transform
// (the mesh turned by 30 degrees about its origin puts its centre 0.0866 m along x and 0.05 m up from it)
TEST(BodyContacts, AMeshBodyMovesAsTheShapeItIs) {
  const Vec3 e{0.05f, 0.03f, 0.05f}, aside{0.1f, 0, 0};
  TriangleMesh mesh = test::boxMesh(e);
  for (Vec3& v : mesh.vertices) v = v + aside;
  const std::string file = test::writeTempMesh("eddy_body_box_aside.obj", mesh);
  SceneDesc scene = contactScene(
      R"({"density": 500, "friction": 0.5, "shape": {"type": "box",
                                     "center": [0.2, 0.12, 0.2], "half_extents": [0.05, 0.03, 0.05],
                                     "rotation": [0, 0, 30]}},
                                    {"density": 500, "friction": 0.5, "shape": {"type": "mesh", "file": ")" +
      file + R"(", "translation": [0.4633975, 0.07, 0.2], "rotation": [0, 0, 30], "sdf_resolution": 32}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  double apart = 0;
  for (int f = 0; f < 75; ++f) {
    sim->advanceFrame();
    ColliderPose box = sim->colliderPose(0), meshBox = sim->colliderPose(1);
    Vec3 centre = meshBox.center + rotate(meshBox.orientation, aside);
    Vec3 d = centre - box.center - Vec3{0.35f, 0, 0};
    apart = std::max({apart, double(length(d)),
                      double(length(rotationVector(meshBox.orientation * conjugate(box.orientation))))});
  }
  ColliderPose p = sim->colliderPose(1);
  Vec3 up = rotate(p.orientation, Vec3{0, 1, 0});
  std::printf(
      "  largest difference from the analytic box %.2e (m and rad); at rest: up %.5f, lowest corner "
      "%.6f m\n",
      apart, double(up.y), lowest({p.center + rotate(p.orientation, aside), p.orientation}, e));
  EXPECT_LT(apart, 1e-3);
  EXPECT_GT(std::fabs(up.y), 0.9999);  // flat on a broad face, as the analytic box lands
  EXPECT_NEAR(lowest({p.center + rotate(p.orientation, aside), p.orientation}, e), 0, 1e-4);
}

// A plate 0.2 m high hinged along its top edge and let go 5 degrees from hanging swings as the physical
// pendulum it is: period 2 pi sqrt(I / (m g d)) = 0.7362 s, with I = m ((0.02^2 + 0.1^2) / 3 + 0.1^2)
// about the edge and d = 0.1 m (0.05 % longer at 5 degrees), its hinge staying where it was
TEST(BodyContacts, AHingedPlateSwingsAsAPendulum) {
  SceneDesc scene = contactScene(R"({"density": 500, "hinge_axis": [0, 0, 1], "hinge_point": [0.4, 0.4, 0.2],
                                     "shape": {"type": "box", "center": [0.4087156, 0.3003805, 0.2],
                                     "half_extents": [0.02, 0.1, 0.1], "rotation": [0, 0, 5]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  const double frame = 1.0 / scene.time.fps;
  std::vector<double> crossings;
  double last = 5, drift = 0, largest = 0;
  for (int f = 1; f <= 150; ++f) {
    sim->advanceFrame();
    ColliderPose p = sim->colliderPose(0);
    Vec3 down = rotate(p.orientation, Vec3{0, -1, 0});
    double angle = std::atan2(double(down.x), -double(down.y)) * 180 / 3.14159265358979;
    Vec3 edge = p.center + rotate(p.orientation, Vec3{0, 0.1f, 0});
    drift = std::max(drift, double(length(edge - Vec3{0.4f, 0.4f, 0.2f})));
    largest = std::max(largest, std::fabs(angle));
    if (last > 0 && angle <= 0) crossings.push_back(frame * (f - angle / (angle - last)));
    last = angle;
  }
  ASSERT_GE(crossings.size(), 3u);
  double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  std::printf("  period %.4f s (pendulum 0.7366 s), largest angle %.3f degrees, hinge moved %.2e m\n", period,
              largest, drift);
  EXPECT_NEAR(period, 0.7366, 0.005);
  EXPECT_NEAR(largest, 5, 0.05);  // nothing but the hinge acts: the swing keeps its amplitude
  EXPECT_LT(drift, 1e-5);
}

// A plate hinged along one end at the floor, let go 30 degrees up, swings down and comes to rest flat on
// the floor: the contacts turn it about its hinge (impulses and the moves out of the floor both), never
// letting a corner into the floor nor the hinge move
TEST(BodyContacts, AHingedPlateFallsFlatOntoTheFloor) {
  const Vec3 e{0.1f, 0.01f, 0.1f};
  SceneDesc scene = contactScene(R"({"density": 500, "friction": 0.5, "hinge_axis": [0, 0, 1],
                                     "hinge_point": [0.3, 0.01, 0.2], "shape": {"type": "box",
                                     "center": [0.3866025, 0.06, 0.2], "half_extents": [0.1, 0.01, 0.1],
                                     "rotation": [0, 0, 30]}})");
  auto sim = createSimulation(scene, Backend::Cpu);
  double lowestEver = 1e30, drift = 0;
  for (int f = 0; f < 75; ++f) {
    sim->advanceFrame();
    ColliderPose p = sim->colliderPose(0);
    lowestEver = std::min(lowestEver, lowest(p, e));
    Vec3 hinge = p.center + rotate(p.orientation, Vec3{-0.1f, 0, 0});
    drift = std::max(drift, double(length(hinge - Vec3{0.3f, 0.01f, 0.2f})));
  }
  ColliderPose p = sim->colliderPose(0);
  Vec3 along = rotate(p.orientation, Vec3{1, 0, 0});
  std::printf(
      "  at rest: bottom %.6f m, tilt %.2e rad, spin %.2e rad/s; lowest on any frame %.6f m, hinge "
      "moved %.2e m\n",
      lowest(p, e), double(along.y), double(length(p.angularVelocity)), lowestEver, drift);
  EXPECT_NEAR(lowest(p, e), 0, 1e-4);
  EXPECT_LT(std::fabs(along.y), 1e-3);
  EXPECT_LT(length(p.angularVelocity), 1e-2);
  EXPECT_GT(lowestEver, -1e-3);
  EXPECT_LT(drift, 1e-5);
}

// a hinge is a rigid body's only, and holds what locks would
TEST(BodyContacts, AHingeIsRefusedWhereItCannotBe) {
  test::expectInputError([] { contactScene(R"({"hinge_axis": [0, 0, 1], "shape": {"type": "box"}})"); },
                         {"/colliders/0/hinge_axis", "only a rigid body"});
  test::expectInputError(
      [] {
        contactScene(R"({"density": 500, "locks": "x", "hinge_axis": [0, 0, 1], "shape": {"type": "box"}})");
      },
      {"/colliders/0/locks", "a hinge already holds"});
  test::expectInputError(
      [] { contactScene(R"({"density": 500, "hinge_point": [0, 1, 0], "shape": {"type": "box"}})"); },
      {"/colliders/0/hinge_point", "hinge_axis"});
  test::expectInputError(
      [] {
        contactScene(
            R"({"density": 500, "hinge_axis": [0, 0, 1], "angular_velocity": [1, 0, 0], "shape": {"type": "box"}})");
      },
      {"/colliders/0/angular_velocity", "along it"});
}

}  // namespace
}  // namespace eddy
