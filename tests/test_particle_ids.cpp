// The persistent particle id: 0, 1, 2, ... in emission order, unique, carried through every sort, exact
// beyond 2^24 (where a float would round it), and fresh for each particle a nozzle releases.
#include <eddy/mat3.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/primitives.h"
#include "emitters/volume_emitter.h"
#include "neighbors/neighbor_grid.h"
#include "particles/particle_set.h"

using namespace eddy;

namespace {

// a dam-break column (volume emitter 0) and a nozzle above the empty end of the tank (emitter 1)
const std::vector<std::string> kVolumeAndNozzle = {
    "fluid.spacing=0.05",
    R"(emitters=[{"type": "volume", "shape": {"type": "box", "center": [0.2, 0.3, 0.3],
        "half_extents": [0.2, 0.3, 0.3]}},
       {"type": "nozzle", "position": [1.2, 0.6, 0.3], "direction": [0, -1, 0], "radius": 0.1,
        "speed": 2, "max_particles": 300}])"};

// true when ids holds each of 0 .. ids.size() - 1 exactly once
bool isPermutationOfFirstIds(const std::vector<std::uint32_t>& ids) {
  std::vector<char> seen(ids.size(), 0);
  for (std::uint32_t id : ids) {
    if (id >= ids.size() || seen[id]) return false;
    seen[id] = 1;
  }
  return true;
}

// positions indexed by id
std::vector<Vec3> byId(const HostParticles& p) {
  std::vector<Vec3> out(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) out[p.id[i]] = p.position[i];
  return out;
}

}  // namespace

TEST(ParticleIds, VolumeParticlesAreNumberedFromZero) {
  SceneDesc scene = loadScene("", {"fluid.spacing=0.05"});
  auto sim = createSimulation(scene, Backend::Cpu);
  HostParticles p;
  sim->copyParticles(p);
  ASSERT_GT(p.size(), 100u);
  ASSERT_EQ(p.id.size(), p.size());
  // the ids are 0 .. n - 1, and id i is the emitter's i-th particle (the copy's rows are in the order of the
  // neighbour grid's sort, which the density of the first query made)
  std::vector<std::uint32_t> ids(p.id.begin(), p.id.end());
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], std::uint32_t(i)) << i;
  ASSERT_EQ(scene.emitters.size(), 1u);
  EmittedParticles emitted = sampleVolume(scene.emitters[0], scene.colliders, scene.fluid.spacing);
  std::vector<Vec3> placed = byId(p);
  ASSERT_EQ(placed.size(), emitted.position.size());
  for (std::size_t i = 0; i < placed.size(); ++i) {
    ASSERT_EQ(placed[i].x, emitted.position[i].x) << i;
    ASSERT_EQ(placed[i].y, emitted.position[i].y) << i;
    ASSERT_EQ(placed[i].z, emitted.position[i].z) << i;
  }
}

// The SPH solvers sort the particles every substep. An id that stayed in its slot, or was moved with the
// wrong particle, would show as a jump: between two substeps a particle moves well under half a spacing.
TEST(ParticleIds, FollowTheirParticlesThroughManySortedSubsteps) {
  for (const char* solver : {"pbf", "wcsph", "mpm"}) {
    SceneDesc scene =
        loadScene("", {"fluid.spacing=0.05", std::string("solver=") + solver, "mpm.grid_resolution=16"});
    auto sim = createSimulation(scene, Backend::Cpu);
    HostParticles p;
    sim->copyParticles(p);
    std::vector<Vec3> before = byId(p);
    const Real dt = Real(1) / 2000;  // within every solver's stable substep here
    int reordered = 0;
    double largestStep = 0;
    for (int s = 0; s < 60; ++s) {
      sim->advanceSubstep(dt);
      sim->copyParticles(p);
      ASSERT_TRUE(isPermutationOfFirstIds(p.id)) << solver << ", substep " << s;
      for (std::size_t i = 0; i < p.size(); ++i) reordered += p.id[i] != std::uint32_t(i);
      std::vector<Vec3> now = byId(p);
      for (std::size_t k = 0; k < now.size(); ++k)
        largestStep = std::max(largestStep, double(length(now[k] - before[k])));
      before = now;
    }
    EXPECT_LT(largestStep, 0.5 * scene.fluid.spacing) << solver;
    // the test means something only if the sort moved particles around
    EXPECT_GT(reordered, 0) << solver;
    // and the particles moved
    EXPECT_GT(largestStep, 1e-4) << solver;
  }
}

TEST(ParticleIds, NozzleParticlesGetFreshIds) {
  auto sim = createSimulation(loadScene("", kVolumeAndNozzle), Backend::Cpu);
  HostParticles p;
  sim->copyParticles(p);
  const std::size_t volume = p.size();
  ASSERT_GT(volume, 0u);
  std::vector<Vec3> previous = byId(p);
  std::size_t count = volume;
  int grew = 0;
  for (int frame = 0; frame < 12; ++frame) {
    sim->advanceFrame();
    sim->stats();  // sorts the particles, as a run does every frame
    sim->copyParticles(p);
    ASSERT_TRUE(isPermutationOfFirstIds(p.id)) << "frame " << frame;
    ASSERT_GE(p.size(), count);
    grew += p.size() > count;
    // ids already handed out stay with their particles: no particle jumps, and the new ones take the next
    // ids, count .. size - 1
    std::vector<Vec3> now = byId(p);
    for (std::size_t k = 0; k < count; ++k)
      ASSERT_LT(length(now[k] - previous[k]), 0.1) << "id " << k << ", frame " << frame;
    for (std::size_t k = count; k < now.size(); ++k)
      EXPECT_GT(now[k].x, 1.0) << "id " << k << " is not a nozzle particle";
    previous = now;
    count = p.size();
  }
  EXPECT_GE(grew, 5);  // the nozzle released particles in most frames
  EXPECT_GT(count, volume);
}

// ids are 32-bit integers stored as such: a float slot would round 2^24 + 1 to 2^24
TEST(ParticleIds, ExactBeyondTwoToThe24) {
  cpu::ParticleSet set;
  set.addAttribute(cpu::attr::kPosition, 3);
  set.addAttribute(cpu::attr::kVelocity, 3);
  set.addAttribute(cpu::attr::kId, 1, true, AttributeType::UInt32);
  const std::uint32_t first = (1u << 24) - 3;
  set.restore(0, first);
  std::vector<Vec3> x, v(9);
  for (int i = 0; i < 9; ++i) x.push_back({Real(8 - i) * Real(0.1), 0.05f, 0.05f});
  set.append(x, v);
  EXPECT_EQ(set.nextId(), first + 9);
  // sorting by cell reverses them (x decreases with the index)
  cpu::NeighborGrid grid;
  cpu::Primitives prims;
  grid.setup(Real(0.1), 9, 0);
  grid.sortParticles(set, cpu::attr::kPosition, prims);
  const std::uint32_t* id = set.uint32(cpu::attr::kId).data;
  const Vec3* xs = set.vec3(cpu::attr::kPosition).data;
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(id[i], first + std::uint32_t(8 - i)) << i;
    EXPECT_EQ(xs[i].x, x[8 - i].x) << i;
  }
}

// The attributes live in two arenas of max(persistent, scratch) words a particle: a reorder moves every
// persistent attribute (ids as integers) into the arena the scratch ones used, and particles appended
// after it start at zero in every attribute, although scratch values were written over the arenas' tails
TEST(ParticleSetArenas, ReorderMovesPersistentAttributesAndNewParticlesStartAtZero) {
  cpu::ParticleSet set;
  set.addAttribute(cpu::attr::kPosition, 3);
  set.addAttribute(cpu::attr::kVelocity, 3);
  set.addAttribute(cpu::attr::kId, 1, true, AttributeType::UInt32);
  set.addAttribute("kept", 4);
  set.addAttribute("scratch4", 4, false);
  set.addAttribute("scratch9", 9, false);
  const int n = 40, later = 24;
  set.reserve(n + later);
  // persistent words 3 + 3 + 1 + 4 = 11, scratch 13: two arenas of 13 words for 64 particles
  EXPECT_EQ(set.bytes(), 2u * 13u * 64u * sizeof(Real));
  std::vector<Vec3> x, v;
  for (int i = 0; i < n; ++i) x.push_back({Real(i), 0, 0}), v.push_back({0, Real(i), 0});
  set.append(x, v);
  Vec4* kept = set.vec4("kept").data;
  for (int i = 0; i < n; ++i) kept[i] = Vec4{Real(i), Real(2 * i), Real(3 * i), Real(4 * i)};
  // fill the scratch attributes (with the whole arena, as a solver's substep would)
  for (int pass = 0; pass < 2; ++pass) {
    Vec4* s4 = set.vec4("scratch4").data;
    Real* s9 = reinterpret_cast<Real*>(set.array<Mat3>("scratch9").data);
    for (int i = 0; i < n + later; ++i) s4[i] = Vec4{7, 7, 7, 7};
    for (int i = 0; i < 9 * (n + later); ++i) s9[i] = 9;
    // reverse the particles
    std::vector<std::uint32_t> order(n);
    for (int i = 0; i < n; ++i) order[i] = std::uint32_t(n - 1 - i);
    set.reorder({order.data(), order.size()});
  }
  // two reversals: every persistent attribute back in place, in whichever arena it is now
  const Vec3* px = set.vec3(cpu::attr::kPosition).data;
  const Vec3* pv = set.vec3(cpu::attr::kVelocity).data;
  const std::uint32_t* id = set.uint32(cpu::attr::kId).data;
  kept = set.vec4("kept").data;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(px[i].x, Real(i));
    EXPECT_EQ(pv[i].y, Real(i));
    EXPECT_EQ(id[i], std::uint32_t(i));
    EXPECT_EQ(kept[i].w, Real(4 * i));
  }
  // one more reversal, with the scratch arrays written after it over the whole arena again
  std::vector<std::uint32_t> order(n);
  for (int i = 0; i < n; ++i) order[i] = std::uint32_t(n - 1 - i);
  set.reorder({order.data(), order.size()});
  Real* s9 = reinterpret_cast<Real*>(set.array<Mat3>("scratch9").data);
  for (int i = 0; i < 9 * (n + later); ++i) s9[i] = 9;
  std::vector<Vec3> x2(later, Vec3{-1, -1, -1}), v2(later, Vec3{});
  set.append(x2, v2);
  ASSERT_EQ(set.size(), n + later);
  kept = set.vec4("kept").data;
  id = set.uint32(cpu::attr::kId).data;
  const Vec4* s4 = set.vec4("scratch4").data;
  for (int i = n; i < n + later; ++i) {
    EXPECT_EQ(kept[i].x, 0);
    EXPECT_EQ(kept[i].w, 0);
    EXPECT_EQ(s4[i].x, 0);
    EXPECT_EQ(id[i], std::uint32_t(i));
  }
  EXPECT_EQ(set.vec3(cpu::attr::kPosition).data[0].x, Real(n - 1));
  EXPECT_EQ(set.uint32(cpu::attr::kId).data[0], std::uint32_t(n - 1));
}
