// Probes: what an engineer's sensor would read, taken from the particles on the device. A point probe reads
// pressure, density and velocity as Shepard-corrected kernel averages of the particles within the kernel
// support h,
//   q(x) = sum_j q_j W(x - x_j) V_j / sum_j W(x - x_j) V_j,   V_j = m / rho_j,
// so a probe on a wall reads the fluid beside it and a dry probe reads nothing (zeros). A point probe with a
// face (a transducer's or a pressure panel's extent) reads that average at samples at most half a spacing
// apart across the face (33 a side at most) and reports their mean pressure, a dry sample counting as 0
// (gauge pressure of air), and the mean density and velocity of the wet samples. A gauge reads the
// free-surface elevation on the vertical line (against gravity) through its position: the highest point of
// the line where the kernel-weighted fluid fraction
//   c(x) = sum_j W(x - x_j) V_j / (1 - B(x))
// is at least 1/2, interpolated between samples a quarter spacing apart; a dry gauge reads the bottom of the
// domain. B(x) is the share of the kernel beyond the walls (the colliders and the domain's box, as the
// solvers' wall kernel gives it for their density: solvers/wall_kernel.h), where no particle can be: 0.49 on
// a wall, 0.73 on an edge and 0.85 in a corner of the box, so that without the division water at rest
// read about 1/2 on a wall and a gauge there read dry. A sample with no particle within h reads 0 whatever
// B, so a dry floor or wall still reads dry. (The elevation at c = 1/2 is DualSPHysics' gauge: J.M.
// Domínguez et al., "DualSPHysics: from fluid dynamics to multiphysics problems", Comp. Part. Mech. 9, 2022;
// the division by the kernel's share inside the fluid domain is the renormalisation of the semi-analytical
// walls, Ferrand et al. 2013, "Unified semi-analytical wall boundary conditions for inviscid, laminar or
// turbulent flows in the meshless SPH method", Int. J. Numer. Meth. Fluids 71.)
//
// Samples are taken after the substep that reaches each probe's due time and kept on the device; the host
// reads a frame's samples in one copy at the end of the frame.
#pragma once

#include <eddy/simulation_desc.h>

#include <string>
#include <vector>

#include "backend/parallel.h"
#include "colliders/collider.h"
#include "core/sph_kernels.h"
#include "neighbors/neighbor_grid.h"
#include "particles/particle_set.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

// what a sample reads: the particles where they are, in the order of the grid's last sort
struct ProbeInputs {
  GridView grid;
  const Vec3* position = nullptr;
  const Vec3* velocity = nullptr;
  const Real* density = nullptr;
  const Real* pressure = nullptr;  // null: the solver has none (no pressure columns)
  SphKernels kernels;
  Real mass = 0;
  // the walls, as the solvers' density sees them (the colliders at `time`, the domain's box last): a gauge
  // divides its fluid fraction by the share of the kernel on the fluid's side of them
  View<const ColliderData> colliders;
  WallKernel wall;
  Real time = 0;
};

class ProbeSampler {
 public:
  // maxRows: samples a frame can hold (one per substep at most, and one at the frame's end)
  ProbeSampler(const SimulationDesc& scene, bool withPressure, int maxRows);

  // the CSV header after "time": NAME.pressure, NAME.density, NAME.vx, NAME.vy, NAME.vz; NAME.elevation
  std::vector<std::string> columns() const;
  // due times from `time` on (a restored state's): each probe's next multiple of its interval
  void startAt(double time);
  // whether a probe is due at `time` (after a substep); sample() takes them
  bool due(double time) const;
  void sample(double time, const ProbeInputs& in);
  // the frame's samples, [time, one value per column] (NaN where that probe was not due), and a fresh frame
  void takeRows(std::vector<std::vector<double>>& rows);
  std::size_t bytes() const { return rows_.bytes() + probes_.bytes() + colour_.bytes(); }

  // one probe as the kernels read it (public: CUDA lambdas cannot live in private members)
  struct Probe {
    Vec3 position{};
    int gauge = 0;                     // 1: elevation on the vertical line through position
    int column = 0;                    // its first value in a row
    Real lo = 0, hi = 0;               // gauge: the line's extent along `up`, relative to position
    int firstSample = 0, samples = 0;  // gauge: its samples of the fluid fraction in colour_
    Vec3 faceFirst{}, faceStep{};      // point: its face's first sample, relative to position, and steps
    int faceCount[3] = {1, 1, 1};      // point: samples of its face along x, y, z (1 1 1: the point)
  };

 private:
  std::vector<ProbeDesc> desc_;
  std::vector<Probe> host_;
  std::vector<double> next_;  // each probe's next due time
  std::vector<double> every_;
  bool withPressure_ = false;
  int width_ = 0;  // values per row
  int maxRows_ = 0;
  Vec3 up_{0, 1, 0};
  Real sampleStep_ = 0;
  Buffer<Probe> probes_;
  Buffer<Real> rows_;                       // maxRows_ x width_
  Buffer<Real> colour_;                     // the gauges' fluid-fraction samples
  std::vector<double> times_;               // the frame's rows
  std::vector<std::vector<int>> dueInRow_;  // which probes each row holds
  int rowCount_ = 0;
};

}  // namespace eddy::EDDY_NS
