#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "colliders/collider.h"
#include "colliders/shape_bounds.h"

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

// ---------------------------------------------------------------------------------------------------
// keyframed motion

namespace {

KeyframeDesc keyframe(Real time, Vec3 translation, Vec3 rotation = {}) {
  return {time, translation, rotation};
}

// the same rotation (q and -q are one), compared by where it takes the axes
void expectSameRotation(Quat a, Quat b, Real tol) {
  for (Vec3 e : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) expectVecNear(rotate(a, e), rotate(b, e), tol);
}

// a box that rests until t = 0.5, moves 2 m along x while turning 90 degrees about y until t = 1.5, then
// 2 m up while turning 90 degrees about z until t = 3.5, and rests there
struct KeyframedBox {
  ColliderDesc desc = makeDesc("box");
  std::vector<ColliderKeyframe> frames;
  ColliderData c;
  KeyframedBox() {
    desc.shape.halfExtents = {0.5f, 0.25f, 0.125f};
    desc.keyframes = {keyframe(0.5f, {0, 0, 0}), keyframe(1.5f, {2, 0, 0}, {0, 90, 0}),
                      keyframe(3.5f, {2, 2, 0}, {0, 90, 90})};
    frames = makeColliderKeyframes(desc);
    c = makeColliderData(desc, frames.data());
  }
  Quat q(int k) const { return quatFromEulerDegrees(desc.keyframes[k].rotation); }
};

}  // namespace

TEST(Colliders, RotationVectorAndSlerp) {
  for (Vec3 r :
       {Vec3{0, 0, 0}, Vec3{1e-7f, 0, 0}, Vec3{0.3f, -0.2f, 0.1f}, Vec3{0, 3.1f, 0}, Vec3{-2, 1, 1.5f}}) {
    expectVecNear(rotationVector(quatFromRotationVector(r)), r, 2e-6f);
    // -q is the same rotation: the shortest arc is the same vector
    Quat q = quatFromRotationVector(r);
    expectVecNear(rotationVector({-q.w, -q.x, -q.y, -q.z}), r, 2e-6f);
  }
  Quat a = quatFromEulerDegrees({0, 10, 0}), b = quatFromEulerDegrees({0, 100, 0});
  expectSameRotation(slerp(a, b, 0), a, 1e-6f);
  expectSameRotation(slerp(a, b, 1), b, 1e-6f);
  expectSameRotation(slerp(a, b, 0.5f), quatFromEulerDegrees({0, 55, 0}), 1e-6f);
  // the short way round: from 170 to -170 degrees about y passes 180, not 0
  expectSameRotation(slerp(quatFromEulerDegrees({0, 170, 0}), quatFromEulerDegrees({0, -170, 0}), 0.5f),
                     quatFromEulerDegrees({0, 180, 0}), 1e-6f);
}

TEST(Colliders, KeyframedPoseInterpolatesAndHolds) {
  KeyframedBox box;
  const ColliderData& c = box.c;
  EXPECT_TRUE(colliderMoves(c));
  EXPECT_TRUE(c.turned);
  // before the first keyframe: its pose, at rest
  expectVecNear(colliderCenter(c, 0), {0, 0, 0}, 0);
  expectSameRotation(colliderOrientation(c, 0.25f), {}, 0);
  expectVecNear(colliderVelocityAt(c, {1, 1, 1}, 0.25f), {0, 0, 0}, 0);
  expectVecNear(colliderDisplacement(c, {1, 1, 1}, 0.4f, 0.1f), {0, 0, 0}, 0);
  // the middle of each segment: half way along, half way round
  expectVecNear(colliderCenter(c, 1), {1, 0, 0}, 1e-6f);
  expectSameRotation(colliderOrientation(c, 1), quatFromEulerDegrees({0, 45, 0}), 1e-6f);
  expectVecNear(colliderCenter(c, 2.5f), {2, 1, 0}, 1e-6f);
  expectSameRotation(colliderOrientation(c, 2.5f), slerp(box.q(1), box.q(2), 0.5f), 1e-6f);
  // at 3/4 of the second segment
  expectSameRotation(colliderOrientation(c, 3), slerp(box.q(1), box.q(2), 0.75f), 1e-6f);
  // the keyframes themselves, and holding after the last
  expectVecNear(colliderCenter(c, 1.5f), {2, 0, 0}, 0);
  expectSameRotation(colliderOrientation(c, 1.5f), box.q(1), 0);
  for (Real t : {3.5f, 4.0f, 100.0f}) {
    expectVecNear(colliderCenter(c, t), {2, 2, 0}, 0);
    expectSameRotation(colliderOrientation(c, t), box.q(2), 0);
    expectVecNear(colliderVelocityAt(c, {3, 1, 0}, t), {0, 0, 0}, 0);
    expectVecNear(colliderDisplacement(c, {3, 1, 0}, t + 0.5f, 0.25f), {0, 0, 0}, 0);
  }
  // the signed distance follows: the box's long axis (x) lies along -z from t = 1.5 on, its short one (z)
  // along x at t = 1.5 and along y from t = 3.5 on
  EXPECT_NEAR(sd(c, {2, 0, -0.45f}, 1.5f), -0.05f, 1e-6f);
  EXPECT_NEAR(sd(c, {2.1f, 0, 0}, 1.5f), -0.025f, 1e-6f);
  EXPECT_NEAR(sd(c, {2, 2, -0.45f}, 3.5f), -0.05f, 1e-6f);
  EXPECT_NEAR(sd(c, {2, 2.1f, 0}, 3.5f), -0.025f, 1e-6f);
  // the first pose is the collider's pose at t = 0, which the bounds use
  Vec3 lo, hi;
  ASSERT_TRUE(shapeBounds(c, &lo, &hi));
  expectVecNear(lo, {-0.5f, -0.25f, -0.125f}, 1e-6f);
  expectVecNear(hi, {0.5f, 0.25f, 0.125f}, 1e-6f);
}

TEST(Colliders, KeyframedVelocityIsTheDerivativeOfThePose) {
  KeyframedBox box;
  const ColliderData& c = box.c;
  // a segment's velocities are its translation and rotation over its duration
  expectVecNear(colliderVelocityAt(c, {1, 0, 0}, 1), {2, 0, 0}, 1e-6f);
  expectVecNear(colliderVelocityAt(c, {1, 0, 1}, 1), {2 + kPi / 2, 0, 0}, 1e-6f);
  expectVecNear(colliderVelocityAt(c, {2, 1, 0}, 2.5f), {0, 1, 0}, 1e-6f);
  // a material point's velocity is the central difference of its path, within each segment
  const Vec3 local{0.4f, -0.2f, 0.1f};
  const Real h = 1e-2f;
  for (Real t : {0.7f, 1.0f, 1.3f, 1.8f, 2.5f, 3.2f}) {
    Vec3 x = colliderToWorld(c, local, t);
    Vec3 fd = (colliderToWorld(c, local, t + h) - colliderToWorld(c, local, t - h)) / (2 * h);
    expectVecNear(colliderVelocityAt(c, x, t), fd, 2e-4f);
  }
}

TEST(Colliders, KeyframedDisplacementIsTheComposedPose) {
  KeyframedBox box;
  const ColliderData& c = box.c;
  // the pose at time t from the keyframes directly: lerp and slerp within the segment
  auto pose = [&](Real t, Vec3 local) {
    int k = t < 1.5f ? 0 : 1;
    const KeyframeDesc &a = box.desc.keyframes[k], &b = box.desc.keyframes[k + 1];
    Real s = (t - a.time) / (b.time - a.time);
    return a.translation + (b.translation - a.translation) * s +
           rotate(slerp(box.q(k), box.q(k + 1), s), local);
  };
  const Vec3 local{0.3f, 0.2f, -0.1f};
  // across the keyframe at t = 1.5, and within one segment
  for (auto [t, dt] :
       {std::pair{1.6f, 0.2f}, std::pair{1.55f, 0.1f}, std::pair{1.2f, 0.1f}, std::pair{2.5f, 0.25f}}) {
    Vec3 x = pose(t - dt, local);
    expectVecNear(colliderDisplacement(c, x, t, dt), pose(t, local) - x, 2e-6f);
  }
  // from rest into the first segment: only the part after t = 0.5 moves it
  Vec3 x{0.5f, 0, 0};
  expectVecNear(colliderDisplacement(c, x, 0.6f, 0.2f), pose(0.6f, x) - x, 2e-6f);
  // into the rest after the last keyframe
  x = pose(3.4f, local);
  Vec3 last = box.desc.keyframes[2].translation + rotate(box.q(2), local);
  expectVecNear(colliderDisplacement(c, x, 3.6f, 0.2f), last - x, 2e-6f);
}

TEST(Colliders, KeyframedTranslationIsThePrescribedVelocityBitForBit) {
  // the same motion two ways: a box at 0.5 m/s along x from (0.25, 0.5, 0), and keyframes to the same place
  ColliderDesc moving = makeDesc("box");
  moving.shape.center = {0.25f, 0.5f, 0};
  moving.linearVelocity = {0.5f, 0, 0};
  ColliderDesc keyed = makeDesc("box");
  keyed.keyframes = {keyframe(0, {0.25f, 0.5f, 0}), keyframe(2, {1.25f, 0.5f, 0})};
  std::vector<ColliderKeyframe> frames = makeColliderKeyframes(keyed);
  ColliderData a = makeColliderData(moving), b = makeColliderData(keyed, frames.data());
  EXPECT_FALSE(b.turned);
  for (Real t : {0.0f, 0.01f, 0.3f, 1.7f}) {
    EXPECT_EQ(sd(a, {0.1f, 0.2f, 0.3f}, t), sd(b, {0.1f, 0.2f, 0.3f}, t));
    Vec3 ca = colliderCenter(a, t), cb = colliderCenter(b, t);
    EXPECT_EQ(ca.x, cb.x);
    Vec3 va = colliderVelocityAt(a, {0, 1, 0}, t), vb = colliderVelocityAt(b, {0, 1, 0}, t);
    EXPECT_EQ(va.x, vb.x);
    Vec3 da = colliderDisplacement(a, {0, 1, 0}, t + 0.01f, 0.01f),
         db = colliderDisplacement(b, {0, 1, 0}, t + 0.01f, 0.01f);
    EXPECT_EQ(da.x, db.x);
  }
  // and the spin the same way: 90 degrees about y in 0.25 s is 2 pi rad/s
  moving.linearVelocity = {};
  moving.angularVelocity = {0, 2 * kPi, 0};
  keyed.keyframes = {keyframe(0, {0.25f, 0.5f, 0}), keyframe(0.25f, {0.25f, 0.5f, 0}, {0, 90, 0})};
  frames = makeColliderKeyframes(keyed);
  a = makeColliderData(moving);
  b = makeColliderData(keyed, frames.data());
  EXPECT_NEAR(frames[0].spin.y, 2 * kPi, 1e-6f);
  for (Real t : {0.01f, 0.1f, 0.2f}) {
    expectSameRotation(colliderOrientation(a, t), colliderOrientation(b, t), 5e-7f);
    expectVecNear(colliderVelocityAt(a, {1, 0, 0}, t), colliderVelocityAt(b, {1, 0, 0}, t), 1e-6f);
  }
}

TEST(Colliders, KeyframedColliderNeedsItsKeyframes) {
  ColliderDesc d = makeDesc("sphere");
  d.keyframes = {keyframe(0, {0, 0, 0}), keyframe(1, {1, 0, 0})};
  EXPECT_THROW(makeColliderData(d), std::invalid_argument);
  d.keyframes.pop_back();
  EXPECT_THROW(makeColliderKeyframes(d), InputError);
  d.keyframes = {keyframe(1, {0, 0, 0}), keyframe(1, {1, 0, 0})};
  EXPECT_THROW(makeColliderKeyframes(d), InputError);
}
