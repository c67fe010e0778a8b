#include "probes/body_forces.h"

#include <climits>

namespace eddy::EDDY_NS {

namespace {

constexpr int kLanes = BodyForces::kLanes;
constexpr int kPerLane = BodyForces::kPerLane;
constexpr Index kTile = BodyForces::kTile;

// a tile's records and the scratch of its folds (shared memory on the GPU, so without initialisers)
struct BodyTile {
  int first[kTile];      // the lowest body slot the particle touches, -1 for none
  int last[kTile];       // the highest
  Real share[6][kTile];  // its share of slot first's force and torque
  double fold[6][kLanes];
  int lo[kLanes], hi[kLanes];
};

struct RowFold {
  double fold[kLanes];
};

// whether particle i may be within the wall kernel's reach h of a body: inside the bounding sphere of one
// (obstacleBound), widened by h and 1 % (beyond the rounding of the distances the wall faces are found with)
EDDY_HD inline bool nearAnyBody(const WallShares& each, const int* colliderOf, int slots, Real h, Index i,
                                std::uint32_t bodies) {
  Vec3 x = each.position[i];
  // with the colliders' balls (colliders/collider_reach.h), which hold every body over the substep
  if (each.balls) return (collidersNear(each.balls, each.colliderCount, x, h) & bodies) != 0;
  for (int s = 0; s < slots; ++s) {
    const ColliderData& c = each.colliders[colliderOf[s]];
    Real bound = obstacleBound(c);
    if (bound < 0) return true;
    Real reach = (bound + h) * Real(1.01);
    if (lengthSquared(x - colliderCenter(c, each.time)) < reach * reach) return true;
  }
  return false;
}

// the particles' shares: each particle's wall faces and contacts (probes/wall_forces.h)
struct ParticleShares {
  WallShares each;
  const int* colliderOf;
  int slots;
  Real h;
  std::uint32_t bodies;  // BodyForces::colliderBits
  EDDY_HD bool mayTouch(Index i) const { return nearAnyBody(each, colliderOf, slots, h, i, bodies); }
  template <class Wanted, class Visit>
  EDDY_HD void forEach(Index i, Wanted&& wanted, Visit&& visit) const {
    each.forEach(i, wanted, visit);
  }
};

// the grid nodes' shares (a grid solver's NodePushes): the opposite of what a collider's condition gave
// the node, at the node
struct NodeShares {
  NodePushes nodes;
  const ColliderData* colliders;
  Real time;
  EDDY_HD bool mayTouch(Index i) const { return nodes.push[i].w >= 0; }
  template <class Wanted, class Visit>
  EDDY_HD void forEach(Index i, Wanted&& wanted, Visit&& visit) const {
    Vec4 p = nodes.push[i];
    int c = int(p.w);
    if (c < 0 || !wanted(c)) return;
    Vec3 force = xyz(p) * Real(-1);
    visit(c, force, cross(nodes.position(i) - colliderCenter(colliders[c], time), force));
  }
};

}  // namespace

void BodyForces::setup(const std::vector<int>& slotOf, Index particles) {
  std::vector<int> colliderOf;
  for (std::size_t c = 0; c < slotOf.size(); ++c)
    if (slotOf[c] >= 0) {
      if (std::size_t(slotOf[c]) >= colliderOf.size()) colliderOf.resize(std::size_t(slotOf[c]) + 1, -1);
      colliderOf[std::size_t(slotOf[c])] = int(c);
    }
  slots_ = int(colliderOf.size());
  if (slots_ == 0) return;
  for (int c : colliderOf) {
    if (c < 32) bodyBits_ |= std::uint32_t(1) << c;
    bodyBeyond32_ = bodyBeyond32_ || c >= 32;
  }
  slotOf_ = Buffer<int>(kDevice, slotOf.size());
  slotOf_.upload(slotOf.data(), slotOf.size());
  colliderOf_ = Buffer<int>(kDevice, colliderOf.size());
  colliderOf_.upload(colliderOf.data(), colliderOf.size());
  reserve(particles);
}

void BodyForces::reserve(Index particles) {
  std::size_t tiles = (std::size_t(particles) + kTile - 1) / kTile;
  std::size_t need = std::size_t(6) * slots_ * tiles;
  if (partials_.size() < need) partials_ = Buffer<double>(kDevice, need);
}

void BodyForces::compute(const WallForceInputs& in, double* out) {
  if (slots_ == 0) return;
  Index tiles = (in.count + kTile - 1) / kTile;
  reserve(in.count);  // sized beforehand (RigidBodies::reserve); grows only where that was missed
  // no particles: pass 2 folds empty rows into zeros
  if (tiles > 0)
    foldTiles(ParticleShares{WallShares::of(in), colliderOf_.data(), slots_, in.wall.h, colliderBits()},
              in.count, tiles);
  foldPartials(tiles, out);
}

void BodyForces::compute(const NodePushes& in, View<const ColliderData> colliders, Real time, double* out) {
  if (slots_ == 0) return;
  Index n = in.count();
  Index tiles = (n + kTile - 1) / kTile;
  reserve(n);  // sized at the first substep: a grid's nodes are as many every substep
  if (tiles > 0) foldTiles(NodeShares{in, colliders.data, time}, n, tiles);
  foldPartials(tiles, out);
}

template <class Shares>
void BodyForces::foldTiles(const Shares& each, Index n, Index tiles) {
  int slots = slots_;
  const int* slotOf = slotOf_.data();
  double* partials = partials_.data();
  std::size_t row = std::size_t(tiles);
  parallelForTiles<kLanes, BodyTile>(
      tiles, EDDY_KERNEL(TileContext<kLanes, BodyTile> & tile) {
        BodyTile& s = tile.shared();
        Index t = tile.index();
        Index base = t * kTile;
        // the records, and the lanes' ranges of slots
        tile.forLanes([&](int lane) {
          int lo = INT_MAX, hi = -1;
          for (int k = 0; k < kPerLane; ++k) {
            int e = lane + k * kLanes;
            Index i = base + e;
            int first = -1, last = -1;
            Real v[6] = {0, 0, 0, 0, 0, 0};
            if (i < n && each.mayTouch(i))
              each.forEach(
                  i, [&](int c) { return slotOf[c] >= 0; },
                  [&](int c, Vec3 force, Vec3 torque) {
                    int slot = slotOf[c];
                    last = slot > last ? slot : last;
                    if (first >= 0 && slot > first) return;
                    if (slot != first)  // a lower slot than those before: the record is its share
                      for (Real& x : v) x = 0;
                    first = slot;
                    v[0] += force.x, v[1] += force.y, v[2] += force.z;
                    v[3] += torque.x, v[4] += torque.y, v[5] += torque.z;
                  });
            s.first[e] = first;
            s.last[e] = last;
            for (int q = 0; q < 6; ++q) s.share[q][e] = v[q];
            if (first >= 0) {
              lo = first < lo ? first : lo;
              hi = last > hi ? last : hi;
            }
          }
          s.lo[lane] = lo;
          s.hi[lane] = hi;
        });
        // pairwise over the lanes, halving the stride, a barrier after each step
        for (int stride = kLanes / 2; stride > 0; stride /= 2)
          tile.forLanes([&](int a) {
            if (a >= stride) return;
            s.lo[a] = s.lo[a + stride] < s.lo[a] ? s.lo[a + stride] : s.lo[a];
            s.hi[a] = s.hi[a + stride] > s.hi[a] ? s.hi[a + stride] : s.hi[a];
          });
        const int lo = s.lo[0], hi = s.hi[0];
        // the slots no particle of the tile touches get zeros
        tile.forLanes([&](int lane) {
          for (int j = lane; j < 6 * slots; j += kLanes)
            if (j / 6 < lo || j / 6 > hi) partials[std::size_t(j) * row + std::size_t(t)] = 0;
        });
        for (int slot = lo; slot <= hi; ++slot) {
          tile.forLanes([&](int lane) {
            double acc[6] = {0, 0, 0, 0, 0, 0};
            for (int k = 0; k < kPerLane; ++k) {
              int e = lane + k * kLanes;
              int first = s.first[e];
              if (first == slot) {
                for (int q = 0; q < 6; ++q) acc[q] += double(s.share[q][e]);
              } else if (first >= 0 && first < slot && s.last[e] >= slot) {
                // a particle near several bodies: its share of this one, worked out again
                Real v[6] = {0, 0, 0, 0, 0, 0};
                each.forEach(
                    base + e, [&](int c) { return slotOf[c] == slot; },
                    [&](int, Vec3 force, Vec3 torque) {
                      v[0] += force.x, v[1] += force.y, v[2] += force.z;
                      v[3] += torque.x, v[4] += torque.y, v[5] += torque.z;
                    });
                for (int q = 0; q < 6; ++q) acc[q] += double(v[q]);
              }
            }
            for (int q = 0; q < 6; ++q) s.fold[q][lane] = acc[q];
          });
          for (int stride = kLanes / 2; stride > 0; stride /= 2)
            tile.forLanes([&](int a) {
              if (a >= stride) return;
              for (int q = 0; q < 6; ++q) s.fold[q][a] += s.fold[q][a + stride];
            });
          tile.forLanes([&](int lane) {
            if (lane < 6)
              partials[(std::size_t(slot) * 6 + std::size_t(lane)) * row + std::size_t(t)] = s.fold[lane][0];
          });
        }
      });
}

template void BodyForces::foldTiles(const ParticleShares&, Index, Index);
template void BodyForces::foldTiles(const NodeShares&, Index, Index);

void BodyForces::foldPartials(Index tiles, double* out) {
  const double* partials = partials_.data();
  parallelForTiles<kLanes, RowFold>(
      Index(6 * slots_), EDDY_KERNEL(TileContext<kLanes, RowFold> & tile) {
        RowFold& s = tile.shared();
        Index j = tile.index();
        const double* p = partials + std::size_t(j) * std::size_t(tiles);
        tile.forLanes([&](int lane) {
          double a = 0;
          for (Index t = lane; t < tiles; t += kLanes) a += p[t];
          s.fold[lane] = a;
        });
        for (int stride = kLanes / 2; stride > 0; stride /= 2)
          tile.forLanes([&](int lane) {
            if (lane < stride) s.fold[lane] += s.fold[lane + stride];
          });
        tile.forLanes([&](int lane) {
          if (lane == 0) out[j] = s.fold[0];
        });
      });
}

}  // namespace eddy::EDDY_NS
