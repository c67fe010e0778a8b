#include "solvers/mpm/particle_to_grid.h"

#include <algorithm>

#include "backend/tiles.h"
#include "solvers/fluid_common.h"

namespace eddy::EDDY_NS {

namespace {

EDDY_HD inline Mat3 unpackAffine(const MpmPacked& q) {
  Mat3 a;
  a.m[0][0] = q.momentum.w;
  a.m[0][1] = q.affine1.x;
  a.m[0][2] = q.affine1.y;
  a.m[1][0] = q.affine1.z;
  a.m[1][1] = q.affine1.w;
  a.m[1][2] = q.affine2.x;
  a.m[2][0] = q.affine2.y;
  a.m[2][1] = q.affine2.z;
  a.m[2][2] = q.affine2.w;
  return a;
}

// a node's sums: mass, momentum and the affine part sum w A (x_i - x_p)
struct NodeSums {
  Real mass = 0;
  Vec3 momentum{}, affine{};
  // particle q, based (oa, ob, oc) below the node, with B-spline argument fx (u - base, u = (x - origin) /
  // dx as MpmGridView::locate finds it)
  EDDY_HD void add(const MpmPacked& q, Vec3 fx, int oa, int ob, int oc, Real dx) {
    add(q, fx, bsplineWeight(fx.x, oa), oa, ob, oc, dx);
  }
  // the same with the weight along x given (the gather by node takes it per particle, oa varying)
  EDDY_HD void add(const MpmPacked& q, Vec3 fx, Real wx, int oa, int ob, int oc, Real dx) {
    Real w = wx * bsplineWeight(fx.y, ob) * bsplineWeight(fx.z, oc);
    Vec3 d = Vec3{Real(oa) - fx.x, Real(ob) - fx.y, Real(oc) - fx.z} * dx;  // x_i - x_p
    mass += w * q.position.w;
    momentum += xyz(q.momentum) * w;
    affine += (unpackAffine(q) * d) * w;
  }
};

// the grid velocity v at a wall with unit normal n (into the material) of collider c moving at vc
EDDY_HD inline Vec3 wallVelocity(Vec3 v, Vec3 vc, Vec3 n, const ColliderData& c, MpmBoundary mode) {
  if (mode == MpmBoundary::Sticky) return vc;
  Vec3 rel = v - vc;
  Real vn = dot(rel, n);
  if (vn >= 0) {
    // separate: a node moving away from the wall is free; slip: no normal relative velocity
    return mode == MpmBoundary::Separate ? v : vc + (rel - n * vn);
  }
  // approaching: restitution (separate only: slip would take the rebound away again) and friction
  Real e = mode == MpmBoundary::Separate ? c.restitution : Real(0);
  return vc + contactVelocity(rel, n, e, c.friction, c.staticFriction);
}

// one axis of a box container: the low face (normal +axis into the box) and the high face
EDDY_HD inline void boxContainerAxis(Real p, Real halfExtent, Vec3 axis, Real tol, Vec3& v, Vec3 vc,
                                     const ColliderData& c, MpmBoundary mode) {
  if (p + halfExtent <= tol) v = wallVelocity(v, vc, axis, c, mode);
  if (halfExtent - p <= tol) v = wallVelocity(v, vc, -axis, c, mode);
}

// one collider's condition on the velocity v of the node at x. Inside a box container (the domain) each
// face the node is on or beyond acts with its own normal, so an edge or corner node holds against both
// walls; any other shape acts through its signed distance and normal.
EDDY_HD inline void colliderBoundary(const ColliderData& cd, Vec3 x, Vec3& v, Real t, Real tol,
                                     MpmBoundary mode) {
  Vec3 vc = colliderVelocityAt(cd, x, t);
  if (cd.kind == ShapeKind::Box && cd.container) {
    Quat q = colliderOrientation(cd, t);
    Vec3 local = toLocal(cd, q, x - colliderCenter(cd, t));
    boxContainerAxis(local.x, cd.halfExtents.x, toWorld(cd, q, Vec3{1, 0, 0}), tol, v, vc, cd, mode);
    boxContainerAxis(local.y, cd.halfExtents.y, toWorld(cd, q, Vec3{0, 1, 0}), tol, v, vc, cd, mode);
    boxContainerAxis(local.z, cd.halfExtents.z, toWorld(cd, q, Vec3{0, 0, 1}), tol, v, vc, cd, mode);
    return;
  }
  Vec3 n;
  Real phi = signedDistance(cd, x, t, &n);
  if (phi <= tol) v = wallVelocity(v, vc, n, cd, mode);
}

// every collider's condition on the velocity v of the node at x, in scene order; returns the last
// collider that changed v, -1 for none
EDDY_HD inline int nodeBoundary(const ColliderData* cs, int nc, Vec3 x, Vec3& v, Real t, Real tol,
                                MpmBoundary mode) {
  int by = -1;
  for (int c = 0; c < nc; ++c) {
    Vec3 before = v;
    colliderBoundary(cs[c], x, v, t, tol, mode);
    if (v.x != before.x || v.y != before.y || v.z != before.z) by = c;
  }
  return by;
}

// the grid update of node (ix, iy, iz) from its sums
EDDY_HD inline void updateNode(const GridUpdate& u, const MpmGridView& g, int ix, int iy, int iz,
                               const NodeSums& sum) {
  Vec4 out{}, before{}, push{0, 0, 0, -1};
  if (sum.mass > 0) {
    Vec3 v = (sum.momentum + sum.affine) / sum.mass;
    before = withW(sum.momentum / sum.mass, sum.mass);
    v += bodyAcceleration(u.forces, v) * u.dt;
    Vec3 free = v;
    int by = nodeBoundary(u.colliders, u.colliderCount, g.nodePosition(ix, iy, iz), v, u.time, u.tolerance,
                          u.mode);
    // the momentum the conditions gave the node, over the substep: the force on the fluid there
    if (by >= 0) push = withW((v - free) * (sum.mass / u.dt), Real(by));
    out = withW(v, sum.mass);
    // non-negative floats order like their bits; most nodes are slower than the maximum so far, and the
    // relaxed read spares them the atomic
    Real speed = length(v);
    std::uint32_t bits;
    __builtin_memcpy(&bits, &speed, sizeof bits);
    if (u.fastest && bits > atomicLoadU32(u.fastest)) atomicMaxU32(u.fastest, bits);
  }
  Index node = g.linear(ix, iy, iz);
  u.nodes[node] = out;
  if (u.previous) u.previous[node] = before;
  if (u.pushes) u.pushes[node] = push;
}

// the gather by node on the GPU: tiles of kLayerNodes consecutive nodes, three lanes each, one per layer of
// base nodes below the node. The CPU, whose lanes would run one after another, keeps a loop over nodes that
// gathers all three layers (tiles of one lane a node were slower there); the sums' order thus
// differs between the backends, as the neighbour search's cell order does.
constexpr int kLayerNodes = 32;

// the partial sums of a tile's lanes, by field (shared memory holds no type with initialisers)
struct LayerSums {
  Real mass[3 * kLayerNodes], mx[3 * kLayerNodes], my[3 * kLayerNodes], mz[3 * kLayerNodes];
  Real ax[3 * kLayerNodes], ay[3 * kLayerNodes], az[3 * kLayerNodes];
  EDDY_HD void store(int lane, const NodeSums& s) {
    mass[lane] = s.mass;
    mx[lane] = s.momentum.x, my[lane] = s.momentum.y, mz[lane] = s.momentum.z;
    ax[lane] = s.affine.x, ay[lane] = s.affine.y, az[lane] = s.affine.z;
  }
  EDDY_HD void addTo(NodeSums& s, int lane) const {
    s.mass += mass[lane];
    s.momentum += Vec3{mx[lane], my[lane], mz[lane]};
    s.affine += Vec3{ax[lane], ay[lane], az[lane]};
  }
};

// adds to `sum` the particles based in layers ocLo..ocHi below node (ix, iy, iz): per layer, the three rows
// of base nodes along x, each one span of the sort, each particle's x offset taken from its base. Four
// particles are loaded at a time so that their reads overlap (the gather is bound by memory latency).
EDDY_HD inline void gatherLayers(const MpmGridView& g, const std::uint32_t* first, const MpmPacked* in,
                                 int ix, int iy, int iz, int ocLo, int ocHi, NodeSums& sum) {
  int xLo = ix - 2 > 0 ? ix - 2 : 0, xHi = ix < g.nx - 3 ? ix : g.nx - 3;
  if (xLo > xHi) return;
  for (int oc = ocLo; oc <= ocHi; ++oc) {
    int bz = iz - oc;
    if (bz < 0 || bz > g.nz - 3) continue;
    for (int ob = 0; ob < 3; ++ob) {
      int by = iy - ob;
      if (by < 0 || by > g.ny - 3) continue;
      Index row = g.linear(0, by, bz);
      std::uint32_t end = first[row + xHi + 1];
      EDDY_UNROLL4
      for (std::uint32_t k = first[row + xLo]; k < end; ++k) {
        MpmPacked q = in[k];
        Vec3 cell = (xyz(q.position) - g.origin) * g.invDx;
        // the base as MpmGridView::locate finds it: truncation rounds like floor once clamped to xLo >= 0,
        // and spares the CPU calls to floorf, fminf and fmaxf for each particle
        int bx = int(cell.x - Real(0.5));
        bx = bx < xLo ? xLo : (bx > xHi ? xHi : bx);
        Vec3 fx = cell - Vec3{Real(bx), Real(by), Real(bz)};
        sum.add(q, fx, bsplineWeight(fx.x, ix - bx), ix - bx, ob, oc, g.dx);
      }
    }
  }
}

}  // namespace

// Every node gathers by itself: the particles based at node - (a, b, c), a, b, c in 0..2, reach it
// (gatherLayers). On the GPU three lanes share a node, one per layer c, and their sums are added in the
// order of c: each lane's chain of dependent loads is a third as long, and a warp holds 32 consecutive
// nodes of one layer.
void gatherByNode(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& u) {
  MpmGridView g = grid.view();
  const std::uint32_t* first = grid.first();
  Index count = g.count();
  if constexpr (kDevice == Device::Host) {
    MpmBlocks blocks = grid.blocks();
    parallelFor(
        count, EDDY_KERNEL(Index node) {
          int ix, iy, iz;
          g.coordinates(node, ix, iy, iz);
          NodeSums sum;
          // no particle comes near a node of an unmarked block: nothing to gather
          if (blocks.reaches(ix, iy, iz)) gatherLayers(g, first, in, ix, iy, iz, 0, 2, sum);
          updateNode(u, g, ix, iy, iz, sum);
        });
    return;
  }
  parallelForTiles<3 * kLayerNodes, LayerSums>((count + kLayerNodes - 1) / kLayerNodes,
                                               EDDY_KERNEL(TileContext<3 * kLayerNodes, LayerSums> & tile) {
                                                 LayerSums& layers = tile.shared();
                                                 Index firstNode = tile.index() * kLayerNodes;
                                                 tile.forLanes([&](int lane) {
                                                   Index node = firstNode + lane % kLayerNodes;
                                                   if (node >= count) return;
                                                   int ix, iy, iz, oc = lane / kLayerNodes;
                                                   g.coordinates(node, ix, iy, iz);
                                                   NodeSums sum;
                                                   gatherLayers(g, first, in, ix, iy, iz, oc, oc, sum);
                                                   layers.store(lane, sum);
                                                 });
                                                 tile.forLanes([&](int lane) {
                                                   Index node = firstNode + lane;
                                                   if (lane >= kLayerNodes || node >= count) return;
                                                   NodeSums sum;
                                                   for (int oc = 0; oc < 3; ++oc)
                                                     layers.addTo(sum, oc * kLayerNodes + lane);
                                                   int ix, iy, iz;
                                                   g.coordinates(node, ix, iy, iz);
                                                   updateNode(u, g, ix, iy, iz, sum);
                                                 });
                                               });
}

namespace {

// Tiles of kTileX x kTileY x kTileZ nodes, a lane per node. A tile walks the base slabs (the base nodes at
// one z) that reach it, upward: it copies the particles of a slab that reach its nodes into shared memory,
// kSlabParticles at a time, and each node above the slab adds those of its 3 x 3 base nodes. A particle is
// read from memory 2.8 times (the tile and its halo, 10 x 6 x 6 base nodes for 8 x 4 x 4 nodes), where the
// gather by node reads it 27 times. Tiles of 8 x 8 x 4 and 16 x 4 x 4 nodes, and of 2 layers, were slower at
// 1M particles (measured with eddy bench --solver mpm, see bench/results).
constexpr int kTileX = 8, kTileY = 4, kTileZ = 4, kTileLanes = kTileX * kTileY * kTileZ;
constexpr int kSlabParticles = 512;

// a tile's shared scratch: the particles of one slab and the first particle of each of its base nodes. The
// particles are stored by field (as one 64-byte record they fell 16 to a memory bank, and the bank
// conflicts made the transfer markedly slower), and one slot in nine is left out, since neighbouring lanes
// read the particles of neighbouring base nodes, about 8 apart, which would otherwise share banks.
struct TransferSlab {
  static constexpr int kSlots = kSlabParticles + kSlabParticles / 8;
  TileVec4 position[kSlots], momentum[kSlots], affine1[kSlots], affine2[kSlots];
  std::uint32_t first[kTileY + 2]
                     [kTileX + 3];   // per row of base nodes: the first particle of each, and one past
  std::uint32_t offset[kTileY + 3];  // where each row starts in the slab's list
  int reached;                       // whether any particle reaches the tile
  EDDY_HD static std::uint32_t slot(std::uint32_t k) { return k + (k >> 3); }
  EDDY_HD void store(std::uint32_t k, const MpmPacked& q) {
    std::uint32_t at = slot(k);
    position[at] = {q.position.x, q.position.y, q.position.z, q.position.w};
    momentum[at] = {q.momentum.x, q.momentum.y, q.momentum.z, q.momentum.w};
    affine1[at] = {q.affine1.x, q.affine1.y, q.affine1.z, q.affine1.w};
    affine2[at] = {q.affine2.x, q.affine2.y, q.affine2.z, q.affine2.w};
  }
  EDDY_HD MpmPacked load(std::uint32_t k) const {
    std::uint32_t at = slot(k);
    TileVec4 a = position[at], b = momentum[at], c = affine1[at], d = affine2[at];
    MpmPacked q;
    q.position = {a.x, a.y, a.z, a.w};
    q.momentum = {b.x, b.y, b.z, b.w};
    q.affine1 = {c.x, c.y, c.z, c.w};
    q.affine2 = {d.x, d.y, d.z, d.w};
    return q;
  }
};

}  // namespace

void gatherByTile(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& u) {
  MpmGridView g = grid.view();
  const std::uint32_t* first = grid.first();
  int tilesX = (g.nx + kTileX - 1) / kTileX, tilesY = (g.ny + kTileY - 1) / kTileY;
  Index tiles = Index(tilesX) * tilesY * ((g.nz + kTileZ - 1) / kTileZ);
  parallelForTiles<kTileLanes, TransferSlab>(
      tiles, EDDY_KERNEL(TileContext<kTileLanes, TransferSlab> & tile) {
        TransferSlab& s = tile.shared();
        Index index = tile.index();
        int x0 = int(index % tilesX) * kTileX, y0 = int(index / tilesX % tilesY) * kTileY;
        int z0 = int(index / (Index(tilesX) * tilesY)) * kTileZ;
        // the base nodes whose particles reach the tile: two below it to its last, within the grid
        int bxLo = std::max(x0 - 2, 0), bxHi = std::min(x0 + kTileX - 1, g.nx - 3);
        int byLo = std::max(y0 - 2, 0), byHi = std::min(y0 + kTileY - 1, g.ny - 3);
        int bzLo = std::max(z0 - 2, 0), bzHi = std::min(z0 + kTileZ - 1, g.nz - 3);
        int rows = byHi - byLo + 1, cols = bxHi - bxLo + 1;
        PerLane<NodeSums, kTileLanes> sums;
        tile.forLanes([&](int lane) {
          sums[lane] = NodeSums{};
          if (lane == 0) s.reached = 0;
        });
        // whether any particle reaches the tile (most tiles of a dense grid: none)
        tile.forLanes([&](int lane) {
          for (int e = lane; e < rows * (bzHi - bzLo + 1); e += kTileLanes) {
            Index row = g.linear(0, byLo + e % rows, bzLo + e / rows);
            if (first[row + bxHi + 1] > first[row + bxLo]) s.reached = 1;
          }
        });
        for (int bz = bzLo; s.reached && bz <= bzHi; ++bz) {
          tile.forLanes([&](int lane) {
            for (int e = lane; e < rows * (cols + 1); e += kTileLanes) {
              int r = e / (cols + 1), c = e % (cols + 1);
              s.first[r][c] = first[g.linear(bxLo + c, byLo + r, bz)];
            }
          });
          tile.forLanes([&](int lane) {
            if (lane != 0) return;
            s.offset[0] = 0;
            for (int r = 0; r < rows; ++r) s.offset[r + 1] = s.offset[r] + (s.first[r][cols] - s.first[r][0]);
          });
          std::uint32_t total = s.offset[rows];
          // the slab's particles, kSlabParticles at a time; each node adds those of its 3 x 3 base nodes
          for (std::uint32_t c0 = 0; c0 < total; c0 += kSlabParticles) {
            std::uint32_t count = std::min(total - c0, std::uint32_t(kSlabParticles));
            tile.forLanes([&](int lane) {
              for (std::uint32_t e = std::uint32_t(lane); e < count; e += kTileLanes) {
                std::uint32_t k = c0 + e;
                int r = 0;
                while (k >= s.offset[r + 1]) ++r;
                s.store(e, in[s.first[r][0] + (k - s.offset[r])]);
              }
            });
            tile.forLanes([&](int lane) {
              int ix = x0 + lane % kTileX, iy = y0 + lane / kTileX % kTileY,
                  iz = z0 + lane / (kTileX * kTileY);
              int oc = iz - bz;
              if (ix >= g.nx || iy >= g.ny || iz >= g.nz || oc < 0 || oc > 2) return;
              NodeSums sum = sums[lane];
              for (int ob = 0; ob < 3; ++ob) {
                int by = iy - ob;
                if (by < byLo || by > byHi) continue;
                int r = by - byLo;
                for (int oa = 0; oa < 3; ++oa) {
                  int bx = ix - oa;
                  if (bx < bxLo || bx > bxHi) continue;
                  int c = bx - bxLo;
                  std::uint32_t lo = s.offset[r] + (s.first[r][c] - s.first[r][0]);
                  std::uint32_t hi = s.offset[r] + (s.first[r][c + 1] - s.first[r][0]);
                  // the base node's particles within this part of the slab, counted from its start
                  lo = lo > c0 ? std::min(lo - c0, count) : 0;
                  hi = hi > c0 ? std::min(hi - c0, count) : 0;
                  Vec3 base{Real(bx), Real(by), Real(bz)};
                  for (std::uint32_t k = lo; k < hi; ++k) {
                    MpmPacked q = s.load(k);
                    sum.add(q, (xyz(q.position) - g.origin) * g.invDx - base, oa, ob, oc, g.dx);
                  }
                }
              }
              sums[lane] = sum;
            });
          }
        }
        tile.forLanes([&](int lane) {
          int ix = x0 + lane % kTileX, iy = y0 + lane / kTileX % kTileY, iz = z0 + lane / (kTileX * kTileY);
          if (ix < g.nx && iy < g.ny && iz < g.nz) updateNode(u, g, ix, iy, iz, sums[lane]);
        });
      });
}

void particleToGrid(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& update) {
  if (grid.nodeCount() >= MpmGrid::kTiledFrom)
    gatherByTile(grid, in, update);
  else
    gatherByNode(grid, in, update);
}

}  // namespace eddy::EDDY_NS
