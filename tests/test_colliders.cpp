#include <gtest/gtest.h>

#include <cmath>

#include "colliders/collider.h"

using namespace eddy;

namespace {

constexpr Real kTol = 1e-5f;
constexpr Real kPi = 3.14159265358979f;

ColliderDesc makeDesc(const std::string& type) {
  ColliderDesc d;
  d.shape.type = type;
  return d;
}

ColliderData floorPlane(Real restitution = 0, Real friction = 0) {
  ColliderDesc d = makeDesc("plane");
  d.shape.center = {0, 0, 0};
  d.shape.normal = {0, 1, 0};
  d.restitution = restitution;
  d.friction = friction;
  return makeColliderData(d);
}

Real sd(const ColliderData& c, Vec3 p, Real t = 0) { return signedDistance(c, p, t, nullptr); }

void expectVecNear(Vec3 a, Vec3 b, Real tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace

TEST(Colliders, PlaneDistance) {
  ColliderDesc d = makeDesc("plane");
  d.shape.center = {0, 1, 0};
  d.shape.normal = {0, 2, 0};  // normalised on build
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {0, 3, 0}), 2, kTol);
  EXPECT_NEAR(sd(c, {5, 0, 7}), -1, kTol);
  EXPECT_NEAR(sd(c, {-4, 1, 2}), 0, kTol);

  d.shape.normal = {1, 1, 0};
  d.shape.center = {0, 0, 0};
  c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {1, 1, 0}), std::sqrt(2.0f), kTol);
}

TEST(Colliders, BoxDistance) {
  ColliderDesc d = makeDesc("box");
  d.shape.halfExtents = {1, 2, 3};
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {0, 0, 0}), -1, kTol);
  EXPECT_NEAR(sd(c, {0, 1.5f, 0}), -0.5f, kTol);
  EXPECT_NEAR(sd(c, {2, 0, 0}), 1, kTol);
  EXPECT_NEAR(sd(c, {1, 0, 0}), 0, kTol);
  EXPECT_NEAR(sd(c, {2, 3, 0}), std::sqrt(2.0f), kTol);
  EXPECT_NEAR(sd(c, {2, 3, 4}), std::sqrt(3.0f), kTol);
  EXPECT_NEAR(sd(c, {-2, -3, -4}), std::sqrt(3.0f), kTol);
}

TEST(Colliders, RotatedBoxDistance) {
  // 90 degrees about z maps local x to world y
  ColliderDesc d = makeDesc("box");
  d.shape.center = {1, 1, 1};
  d.shape.halfExtents = {2, 0.5f, 0.5f};
  d.shape.rotation = {0, 0, 90};
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {1, 3.5f, 1}), 0.5f, kTol);
  EXPECT_NEAR(sd(c, {1, 2.5f, 1}), -0.5f, 1e-5f);
  EXPECT_NEAR(sd(c, {2.5f, 1, 1}), 1, kTol);
}

TEST(Colliders, EulerOrderIsXThenYThenZ) {
  Quat q = quatFromEulerDegrees({90, 90, 0});
  // x first takes +y to +z, then y takes +z to +x
  expectVecNear(rotate(q, {0, 1, 0}), {1, 0, 0}, 1e-6f);
}

TEST(Colliders, SphereDistance) {
  ColliderDesc d = makeDesc("sphere");
  d.shape.center = {1, 2, 3};
  d.shape.radius = 1;
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {1, 2, 3}), -1, kTol);
  EXPECT_NEAR(sd(c, {3, 2, 3}), 1, kTol);
  EXPECT_NEAR(sd(c, {1, 2, 4}), 0, kTol);
}

TEST(Colliders, CapsuleDistance) {
  ColliderDesc d = makeDesc("capsule");
  d.shape.radius = 0.5f;
  d.shape.halfHeight = 1;
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {0, 0, 0}), -0.5f, kTol);
  EXPECT_NEAR(sd(c, {1, 0.7f, 0}), 0.5f, kTol);
  EXPECT_NEAR(sd(c, {0, 2, 0}), 0.5f, kTol);
  EXPECT_NEAR(sd(c, {0, -1.5f, 0}), 0, kTol);
  EXPECT_NEAR(sd(c, {0.6f, 1.8f, 0}), 0.5f, kTol);  // |(0.6, 0.8)| - 0.5

  // rotated 90 degrees about x: the axis lies along world z
  d.shape.rotation = {90, 0, 0};
  c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {0, 0, 2}), 0.5f, kTol);
  EXPECT_NEAR(sd(c, {0, 2, 0}), 1.5f, kTol);
}

TEST(Colliders, CylinderDistance) {
  ColliderDesc d = makeDesc("cylinder");
  d.shape.radius = 1;
  d.shape.halfHeight = 1;
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {0, 0, 0}), -1, kTol);
  EXPECT_NEAR(sd(c, {0, 0.5f, 0}), -0.5f, kTol);
  EXPECT_NEAR(sd(c, {0.5f, 0.9f, 0}), -0.1f, kTol);
  EXPECT_NEAR(sd(c, {0, 0, 2}), 1, kTol);
  EXPECT_NEAR(sd(c, {0, 3, 0}), 2, kTol);
  EXPECT_NEAR(sd(c, {2, 3, 0}), std::sqrt(5.0f), kTol);
  EXPECT_NEAR(sd(c, {1, 1, 0}), 0, kTol);
}

TEST(Colliders, UnknownShapeThrows) {
  EXPECT_THROW(makeColliderData(makeDesc("torus")), InputError);
  ColliderDesc d = makeDesc("sphere");
  d.shape.radius = 0;
  EXPECT_THROW(makeColliderData(d), InputError);
}

TEST(Colliders, NormalsAreUnitAndMatchTheGradient) {
  const char* types[] = {"plane", "box", "sphere", "capsule", "cylinder"};
  for (const char* type : types) {
    for (bool container : {false, true}) {
      ColliderDesc d = makeDesc(type);
      d.container = container;
      d.shape.center = {0.1f, -0.2f, 0.3f};
      d.shape.halfExtents = {0.5f, 0.7f, 0.4f};
      d.shape.radius = 0.45f;
      d.shape.halfHeight = 0.3f;
      d.shape.normal = {0.2f, 1, -0.1f};
      d.shape.rotation = {20, -35, 50};
      ColliderData c = makeColliderData(d);
      unsigned state = 12345;
      int checked = 0;
      auto rnd = [&] {
        state = state * 1664525u + 1013904223u;
        return Real(state >> 8) / Real(1 << 24) * 3 - 1.5f;
      };
      for (int i = 0; i < 300; ++i) {
        Vec3 p{rnd(), rnd(), rnd()};
        Vec3 n;
        Real phi = signedDistance(c, p, 0, &n);
        EXPECT_NEAR(length(n), 1, 1e-5f) << type;
        // compare with central differences where the field is smooth enough
        const Real h = 1e-3f;
        Vec3 fd{sd(c, p + Vec3{h, 0, 0}) - sd(c, p - Vec3{h, 0, 0}),
                sd(c, p + Vec3{0, h, 0}) - sd(c, p - Vec3{0, h, 0}),
                sd(c, p + Vec3{0, 0, h}) - sd(c, p - Vec3{0, 0, h})};
        fd = fd / (2 * h);
        if (std::fabs(length(fd) - 1) < 1e-2f) {
          EXPECT_GT(dot(fd, n), 0.99f) << type << " phi " << phi;
          ++checked;
        }
      }
      EXPECT_GT(checked, 200) << type;
    }
  }
}

TEST(Colliders, NormalsAtCornersAndCentres) {
  ColliderDesc d = makeDesc("box");
  d.shape.halfExtents = {1, 2, 3};
  ColliderData box = makeColliderData(d);
  Vec3 n;
  signedDistance(box, {1, 2, 3}, 0, &n);
  EXPECT_NEAR(length(n), 1, 1e-6f);
  signedDistance(box, {2, 3, 4}, 0, &n);
  expectVecNear(n, Vec3{1, 1, 1} / std::sqrt(3.0f), 1e-6f);
  signedDistance(box, {0, 0, 0}, 0, &n);
  expectVecNear(n, {1, 0, 0}, 0);  // nearest face of the thinnest axis

  d = makeDesc("sphere");
  ColliderData sphere = makeColliderData(d);
  signedDistance(sphere, {0, 0, 0}, 0, &n);
  EXPECT_NEAR(length(n), 1, 1e-6f);

  d = makeDesc("capsule");
  ColliderData capsule = makeColliderData(d);
  signedDistance(capsule, {0, 0.2f, 0}, 0, &n);
  EXPECT_NEAR(length(n), 1, 1e-6f);

  d = makeDesc("cylinder");
  ColliderData cylinder = makeColliderData(d);
  signedDistance(cylinder, {0, 0, 0}, 0, &n);
  EXPECT_NEAR(length(n), 1, 1e-6f);
}

TEST(Colliders, ContainerFlipsSign) {
  ColliderDesc d = makeDesc("sphere");
  d.shape.radius = 1;
  d.container = true;
  ColliderData c = makeColliderData(d);
  Vec3 n;
  EXPECT_NEAR(signedDistance(c, {0.25f, 0, 0}, 0, &n), 0.75f, kTol);
  expectVecNear(n, {-1, 0, 0}, 1e-6f);
  EXPECT_NEAR(signedDistance(c, {0, 2, 0}, 0, &n), -1, kTol);
  expectVecNear(n, {0, -1, 0}, 1e-6f);

  d.container = false;
  c = makeColliderData(d);
  EXPECT_NEAR(signedDistance(c, {0.25f, 0, 0}, 0, &n), -0.75f, kTol);
  expectVecNear(n, {1, 0, 0}, 1e-6f);
}

TEST(Colliders, DomainContainer) {
  DomainDesc dom;
  dom.min = {0, 0, 0};
  dom.max = {2, 1, 4};
  ColliderData c = makeDomainContainer(dom);
  EXPECT_TRUE(c.container);
  EXPECT_EQ(c.friction, 0);
  EXPECT_EQ(c.restitution, 0);
  Vec3 n;
  EXPECT_NEAR(signedDistance(c, {1, 0.1f, 2}, 0, &n), 0.1f, kTol);
  expectVecNear(n, {0, 1, 0}, 1e-6f);
  EXPECT_NEAR(sd(c, {3, 0.5f, 2}), -1, kTol);
  dom.max.y = -1;
  EXPECT_THROW(makeDomainContainer(dom), InputError);
}

TEST(Colliders, MovingPose) {
  ColliderDesc d = makeDesc("sphere");
  d.shape.radius = 0.5f;
  d.linearVelocity = {1, 0, 0};
  ColliderData c = makeColliderData(d);
  EXPECT_NEAR(sd(c, {2, 0, 0}, 2), -0.5f, kTol);
  EXPECT_NEAR(sd(c, {2, 0, 0}, 0), 1.5f, kTol);
  expectVecNear(colliderCenter(c, 3), {3, 0, 0}, 1e-6f);

  // a long box spinning at 90 degrees per second about z lies along y after one second
  d = makeDesc("box");
  d.shape.halfExtents = {2, 0.5f, 0.5f};
  d.angularVelocity = {0, 0, kPi / 2};
  c = makeColliderData(d);
  EXPECT_LT(sd(c, {0, 1.9f, 0}, 1), 0);
  EXPECT_NEAR(sd(c, {1.9f, 0, 0}, 1), 1.4f, 1e-4f);
  EXPECT_NEAR(sd(c, {1.9f, 0, 0}, 0), -0.1f, 1e-4f);
  expectVecNear(colliderVelocityAt(c, {1, 0, 0}, 0), {0, kPi / 2, 0}, 1e-6f);

  d.linearVelocity = {0, 0, 2};
  c = makeColliderData(d);
  // velocity about the moved center
  expectVecNear(colliderVelocityAt(c, {0, 1, 2}, 1), {-kPi / 2, 0, 2}, 1e-6f);
}

TEST(Colliders, BoundsOfRotatedShapes) {
  ColliderDesc d = makeDesc("cylinder");
  d.shape.radius = 1;
  d.shape.halfHeight = 2;
  d.shape.rotation = {0, 0, 90};  // axis along x
  Vec3 lo, hi;
  ASSERT_TRUE(shapeBounds(makeColliderData(d), &lo, &hi));
  expectVecNear(lo, {-2, -1, -1}, 1e-5f);
  expectVecNear(hi, {2, 1, 1}, 1e-5f);
  d.shape.type = "plane";
  EXPECT_FALSE(shapeBounds(makeColliderData(d), &lo, &hi));
}

TEST(Colliders, ProjectPositionPushesOut) {
  ColliderData c = floorPlane();
  Vec3 x{0.3f, 0.05f, 0};
  EXPECT_TRUE(projectPosition(c, x, {0.3f, 0.2f, 0}, 0.1f, 0, 0.01f));
  expectVecNear(x, {0.3f, 0.1f, 0}, 1e-6f);

  Vec3 y{0, 0.5f, 0};
  EXPECT_FALSE(projectPosition(c, y, {0, 0.6f, 0}, 0.1f, 0, 0.01f));
  expectVecNear(y, {0, 0.5f, 0}, 0);

  // a sphere obstacle
  ColliderDesc d = makeDesc("sphere");
  d.shape.radius = 1;
  ColliderData s = makeColliderData(d);
  Vec3 z{0.5f, 0.5f, 0};
  EXPECT_TRUE(projectPosition(s, z, z, 0.1f, 0, 0.01f));
  EXPECT_NEAR(sd(s, z), 0.1f, 1e-5f);
}

TEST(Colliders, ProjectPositionCornerOfContainer) {
  DomainDesc dom;
  dom.min = {0, 0, 0};
  dom.max = {1, 1, 1};
  ColliderData c = makeDomainContainer(dom);
  Vec3 x{-0.05f, -0.05f, -0.05f};
  EXPECT_TRUE(projectPosition(c, x, x, 0.02f, 0, 0.01f));
  expectVecNear(x, {0.02f, 0.02f, 0.02f}, 1e-5f);

  Vec3 y{1.03f, 0.005f, 0.5f}, v{1, -1, 0};
  collideAll(&c, 1, y, v, 0.02f, 0);
  expectVecNear(y, {0.98f, 0.02f, 0.5f}, 1e-5f);
  expectVecNear(v, {0, 0, 0}, 1e-6f);
}

TEST(Colliders, PositionFriction) {
  ColliderData c = floorPlane();
  const Vec3 prev{0, 0.1f, 0};
  // static friction holds a small slide (depth 0.05, slide 0.001)
  c.staticFriction = 1;
  Vec3 x{0.001f, 0.05f, 0};
  projectPosition(c, x, prev, 0.1f, 0, 0.01f);
  expectVecNear(x, {0, 0.1f, 0}, 1e-7f);

  // dynamic friction removes mu_k * depth of it
  c.staticFriction = 0;
  c.friction = 0.01f;
  x = {0.001f, 0.05f, 0};
  projectPosition(c, x, prev, 0.1f, 0, 0.01f);
  expectVecNear(x, {0.0005f, 0.1f, 0}, 1e-7f);

  // frictionless keeps it
  c.friction = 0;
  x = {0.001f, 0.05f, 0};
  projectPosition(c, x, prev, 0.1f, 0, 0.01f);
  expectVecNear(x, {0.001f, 0.1f, 0}, 1e-7f);
}

TEST(Colliders, PositionFrictionOnMovingFloor) {
  ColliderData c = floorPlane();
  c.linearVelocity = {1, 0, 0};
  c.staticFriction = 2;
  // the floor moved 0.01 under a particle that sank by 0.01: static friction carries it along
  Vec3 x{0, 0.09f, 0};
  EXPECT_TRUE(projectPosition(c, x, {0, 0.1f, 0}, 0.1f, 1, 0.01f));
  expectVecNear(x, {0.01f, 0.1f, 0}, 1e-6f);
}

TEST(Colliders, RestitutionHeadOn) {
  ColliderData c = floorPlane(0.5f);
  Vec3 x{0, 0.05f, 0}, v{0, -2, 0};
  EXPECT_TRUE(collideVelocity(c, x, v, 0.1f, 0));
  expectVecNear(v, {0, 1, 0}, 1e-6f);
  EXPECT_NEAR(x.y, 0.1f, 1e-6f);

  // a separating particle keeps its velocity
  x = {0, 0.05f, 0};
  v = {0, 3, 0};
  EXPECT_TRUE(collideVelocity(c, x, v, 0.1f, 0));
  expectVecNear(v, {0, 3, 0}, 0);
}

TEST(Colliders, VelocityFriction) {
  ColliderData sticky = floorPlane(0, 10);
  Vec3 x{0, 0.05f, 0}, v{1, -1, 0};
  collideVelocity(sticky, x, v, 0.1f, 0);
  expectVecNear(v, {0, 0, 0}, 1e-6f);

  ColliderData slick = floorPlane(0, 0);
  x = {0, 0.05f, 0};
  v = {1, -1, 0.5f};
  collideVelocity(slick, x, v, 0.1f, 0);
  expectVecNear(v, {1, 0, 0.5f}, 1e-6f);

  // bounded by the normal impulse: mu |dv_n| = 0.25 of a 1 m/s slide
  ColliderData some = floorPlane(0, 0.25f);
  x = {0, 0.05f, 0};
  v = {1, -1, 0};
  collideVelocity(some, x, v, 0.1f, 0);
  expectVecNear(v, {0.75f, 0, 0}, 1e-6f);
}

TEST(Colliders, MovingFloorDragsRestingParticle) {
  ColliderData c = floorPlane(0, 0.5f);
  c.linearVelocity = {1, 0, 0};
  const Real r = 0.01f, dt = 1e-3f;
  Vec3 x{0, r, 0}, v{0, 0, 0};
  for (int step = 1; step <= 1000; ++step) {
    v.y -= 9.81f * dt;
    x += v * dt;
    collideAll(&c, 1, x, v, r, step * dt);
  }
  EXPECT_NEAR(v.x, 1, 1e-3f);
  EXPECT_NEAR(v.y, 0, 1e-3f);
  EXPECT_NEAR(x.y, r, 1e-5f);
  EXPECT_GT(x.x, 0.5f);
}

TEST(Colliders, MovingWallPushes) {
  ColliderDesc d = makeDesc("plane");
  d.shape.normal = {1, 0, 0};
  d.linearVelocity = {2, 0, 0};
  ColliderData c = makeColliderData(d);
  Vec3 x{0.5f, 0, 0}, v{0, 0, 0};
  EXPECT_TRUE(collideVelocity(c, x, v, 0.1f, 0.5f));  // the wall is at x = 1 by then
  expectVecNear(x, {1.1f, 0, 0}, 1e-6f);
  expectVecNear(v, {2, 0, 0}, 1e-6f);
}

TEST(Colliders, CollideAllResolvesTwoColliders) {
  ColliderData colliders[2] = {floorPlane(), floorPlane()};
  ColliderDesc wall = makeDesc("plane");
  wall.shape.normal = {-1, 0, 0};
  wall.shape.center = {1, 0, 0};
  colliders[1] = makeColliderData(wall);
  Vec3 x{1.02f, -0.03f, 0}, v{1, -1, 0};
  collideAll(colliders, 2, x, v, 0.05f, 0);
  EXPECT_GE(sd(colliders[0], x), 0.05f - 1e-6f);
  EXPECT_GE(sd(colliders[1], x), 0.05f - 1e-6f);
  expectVecNear(v, {0, 0, 0}, 1e-6f);

  Vec3 p{1.02f, -0.03f, 0};
  projectAll(colliders, 2, p, {0.9f, 0.1f, 0}, 0.05f, 0, 0.01f);
  expectVecNear(p, {0.95f, 0.05f, 0}, 1e-6f);
}

TEST(Colliders, RotatingContainerCarriesFluid) {
  // a sticky drum spinning about its axis sets a particle at its wall moving with the wall
  ColliderDesc d = makeDesc("cylinder");
  d.container = true;
  d.shape.radius = 1;
  d.shape.halfHeight = 1;
  d.shape.rotation = {90, 0, 0};  // axis along z
  d.angularVelocity = {0, 0, 2};
  d.friction = 100;
  ColliderData c = makeColliderData(d);
  Vec3 x{0, -1.01f, 0}, v{0, -0.5f, 0};
  EXPECT_TRUE(collideVelocity(c, x, v, 0.05f, 0));
  EXPECT_NEAR(sd(c, x), 0.05f, 1e-5f);
  // wall velocity at (0, -0.95) is omega x r = (1.9, 0, 0)
  expectVecNear(v, {1.9f, 0, 0}, 1e-5f);
}
