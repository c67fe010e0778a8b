#include "probes/probe_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eddy::EDDY_NS {

namespace {
constexpr int kPointValues = 5;       // pressure, density, vx, vy, vz (pressure left out where there is none)
constexpr int kMaxPerLaunch = 64;     // probes one sample() launch covers (a bit mask)
constexpr int kMostFaceSamples = 33;  // along one axis of a probe's face
// the least share of a gauge sample's kernel taken to lie on the fluid's side of the walls. Inside the domain
// the wall kernel leaves at least 0.15 (on a corner of the box, 0.85 beyond its three walls), so this only
// keeps the divisor from vanishing where colliders crowd a point, and a stray particle there from reading
// as water by more than ten times its fraction
constexpr Real kLeastFluidShare = Real(0.1);
}  // namespace

ProbeSampler::ProbeSampler(const SimulationDesc& scene, bool withPressure, int maxRows)
    : desc_(scene.probes), withPressure_(withPressure), maxRows_(std::max(maxRows, 1)) {
  Real g = length(scene.forces.gravity);
  if (g > 0) up_ = scene.forces.gravity * Real(-1 / g);
  sampleStep_ = Real(0.25) * scene.fluid.spacing;
  const Vec3 lo = scene.domain.min, hi = scene.domain.max;
  int gaugeSamples = 0;
  for (const ProbeDesc& d : desc_) {
    Probe p;
    p.position = d.position;
    p.gauge = d.type == "gauge";
    p.column = width_;
    // a face: samples at most half a spacing apart along each axis it spans, both edges included
    const Real extent[3] = {d.face.x, d.face.y, d.face.z};
    Real first[3], step[3];
    for (int a = 0; a < 3; ++a) {
      int n = extent[a] > 0 ? std::min(kMostFaceSamples, int(std::ceil(extent[a] / sampleStep_ / 2)) + 1) : 1;
      p.faceCount[a] = n;
      first[a] = -extent[a] / 2;
      step[a] = n > 1 ? extent[a] / Real(n - 1) : Real(0);
    }
    p.faceFirst = Vec3{first[0], first[1], first[2]};
    p.faceStep = Vec3{step[0], step[1], step[2]};
    width_ += p.gauge ? 1 : (withPressure ? kPointValues : kPointValues - 1);
    if (p.gauge) {
      // the line's extent inside the domain box, along up, from the box's corners
      Real a = std::numeric_limits<Real>::max(), b = std::numeric_limits<Real>::lowest();
      for (int c = 0; c < 8; ++c) {
        Vec3 corner{c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z};
        Real s = dot(corner - d.position, up_);
        a = std::min(a, s);
        b = std::max(b, s);
      }
      p.lo = a;
      p.hi = b;
      p.firstSample = gaugeSamples;
      p.samples = int(std::ceil((b - a) / sampleStep_)) + 1;
      gaugeSamples += p.samples;
    }
    host_.push_back(p);
    // every = 0: once per frame
    double every = d.every > 0 ? double(d.every) : 1.0 / double(scene.time.fps);
    every_.push_back(every);
    next_.push_back(every);
  }
  probes_ = Buffer<Probe>(kDevice, host_.size());
  probes_.upload(host_.data(), host_.size());
  rows_ = Buffer<Real>(kDevice, std::size_t(maxRows_) * std::max(width_, 1));
  colour_ = Buffer<Real>(kDevice, std::max(gaugeSamples, 1));
}

std::vector<std::string> ProbeSampler::columns() const {
  std::vector<std::string> c;
  for (std::size_t k = 0; k < desc_.size(); ++k) {
    const std::string& n = desc_[k].name;
    if (host_[k].gauge) {
      c.push_back(n + ".elevation");
      continue;
    }
    if (withPressure_) c.push_back(n + ".pressure");
    for (const char* q : {".density", ".vx", ".vy", ".vz"}) c.push_back(n + q);
  }
  return c;
}

void ProbeSampler::startAt(double time) {
  for (std::size_t k = 0; k < next_.size(); ++k)
    next_[k] = (std::floor(time / every_[k] + 1e-6) + 1) * every_[k];
}

// a hair of slack: a substep that ends at the due time up to round-off takes the sample
bool ProbeSampler::due(double time) const {
  for (double t : next_)
    if (time >= t - 1e-9) return true;
  return false;
}

void ProbeSampler::sample(double time, const ProbeInputs& in) {
  if (rowCount_ >= maxRows_) return;  // more substeps than the frame allows: cannot happen
  std::vector<int> dueList;
  for (std::size_t k = 0; k < next_.size(); ++k) {
    if (time < next_[k] - 1e-9) continue;
    dueList.push_back(int(k));
    // the next multiple of every after this time (a long substep skips the ones it passed)
    next_[k] = (std::floor(time / every_[k] + 1e-6) + 1) * every_[k];
  }
  if (dueList.empty()) return;
  int row = rowCount_++;
  times_.push_back(time);
  dueInRow_.push_back(dueList);

  const Probe* probes = probes_.data();
  Real* out = rows_.data() + std::size_t(row) * width_;
  Real* colour = colour_.data();
  GridView grid = in.grid;
  const Vec3* x = in.position;
  const Vec3* v = in.velocity;
  const Real* rho = in.density;
  const Real* pressure = in.pressure;
  SphKernels k = in.kernels;
  Real m = in.mass, h2 = in.kernels.h * in.kernels.h;
  WallKernel wall = in.wall;
  const ColliderData* cs = in.colliders.data;
  int nc = int(in.colliders.size);
  Real t = in.time;
  Vec3 up = up_;
  Real step = sampleStep_;
  for (std::size_t from = 0; from < host_.size(); from += kMaxPerLaunch) {
    std::uint64_t mask = 0;
    int gaugeSamples = 0, firstGaugeSample = -1;
    for (int q : dueList)
      if (q >= int(from) && q < int(from) + kMaxPerLaunch) mask |= std::uint64_t(1) << (q - from);
    if (!mask) continue;
    std::size_t count = std::min<std::size_t>(kMaxPerLaunch, host_.size() - from);
    for (std::size_t q = from; q < from + count; ++q)
      if (host_[q].gauge) {
        if (firstGaugeSample < 0) firstGaugeSample = host_[q].firstSample;
        gaugeSamples = host_[q].firstSample + host_[q].samples - firstGaugeSample;
      }
    int first = int(from);
    // the fraction sum_j W V_j at every sample of the due gauges' lines, over the share of the kernel on the
    // fluid's side of the walls
    if (gaugeSamples > 0) {
      int base = firstGaugeSample;
      parallelFor(
          Index(gaugeSamples), EDDY_KERNEL(Index s) {
            int at = base + int(s);
            // the gauge this sample belongs to
            int g = first;
            while (!(probes[g].gauge && at >= probes[g].firstSample &&
                     at < probes[g].firstSample + probes[g].samples))
              ++g;
            if (!((mask >> (g - first)) & 1u)) return;
            const Probe& p = probes[g];
            Vec3 point = p.position + up * (p.lo + Real(at - p.firstSample) * step);
            Real sum = 0;
            grid.forEachCell(point, [&](std::uint32_t begin, std::uint32_t end) {
              for (std::uint32_t j = begin; j < end; ++j) {
                Real r2 = lengthSquared(point - x[j]);
                if (r2 < h2) sum += k.poly6(r2) * (m / rho[j]);
              }
            });
            // beside a wall the kernel's share beyond it (rho0 times it is what the wall adds to a particle's
            // density, computeDensity in solvers/fluid_common.h) holds no particles, so that water at rest
            // there read about 1/2 and a gauge on a wall read dry; a dry sample stays 0 (its sum is 0)
            Real beyond = 0;
            Vec3 unused{};
            wall.accumulate(cs, nc, point, t, beyond, unused);
            colour[at] = sum / fmaxf(1 - beyond, kLeastFluidShare);
          });
    }
    bool withPressure = pressure != nullptr;
    parallelFor(
        Index(count), EDDY_KERNEL(Index local) {
          if (!((mask >> local) & 1u)) return;
          const Probe& p = probes[first + local];
          if (p.gauge) {
            // from the top down, the first sample where the line is at least half fluid
            Real elevation = dot(p.position, up) + p.lo;
            for (int s = p.samples - 1; s >= 0; --s) {
              Real c = colour[p.firstSample + s];
              if (c < Real(0.5)) continue;
              Real above = s + 1 < p.samples ? colour[p.firstSample + s + 1] : Real(0);
              // linear between this sample (>= 1/2) and the one above (< 1/2)
              Real f = (c - Real(0.5)) / fmaxf(c - above, Real(1e-12));
              elevation = dot(p.position, up) + p.lo + (Real(s) + f) * step;
              break;
            }
            out[p.column] = elevation;
            return;
          }
          // the Shepard averages at each sample of the face (one for a point): pressure summed over all of
          // them (a dry one reads 0), density and velocity over the wet ones
          Real pressureSum = 0, densitySum = 0;
          Vec3 velocitySum{};
          int wet = 0;
          for (int a = 0; a < p.faceCount[0]; ++a)
            for (int b = 0; b < p.faceCount[1]; ++b)
              for (int c = 0; c < p.faceCount[2]; ++c) {
                Vec3 point = p.position + p.faceFirst +
                             Vec3{p.faceStep.x * Real(a), p.faceStep.y * Real(b), p.faceStep.z * Real(c)};
                Real weight = 0, pSum = 0, rhoSum = 0;
                Vec3 vSum{};
                grid.forEachCell(point, [&](std::uint32_t begin, std::uint32_t end) {
                  for (std::uint32_t j = begin; j < end; ++j) {
                    Real r2 = lengthSquared(point - x[j]);
                    if (!(r2 < h2)) continue;
                    Real w = k.poly6(r2) * (m / rho[j]);
                    weight += w;
                    rhoSum += w * rho[j];
                    vSum += v[j] * w;
                    if (withPressure) pSum += w * pressure[j];
                  }
                });
                if (!(weight > 0)) continue;
                Real inv = 1 / weight;
                pressureSum += pSum * inv;
                densitySum += rhoSum * inv;
                velocitySum += vSum * inv;
                ++wet;
              }
          Real perSample = Real(1) / Real(p.faceCount[0] * p.faceCount[1] * p.faceCount[2]);
          Real perWet = wet > 0 ? Real(1) / Real(wet) : Real(0);
          int c = p.column;
          if (withPressure) out[c++] = pressureSum * perSample;
          out[c] = densitySum * perWet;
          out[c + 1] = velocitySum.x * perWet;
          out[c + 2] = velocitySum.y * perWet;
          out[c + 3] = velocitySum.z * perWet;
        });
  }
}

void ProbeSampler::takeRows(std::vector<std::vector<double>>& rows) {
  rows.clear();
  if (rowCount_ == 0) return;
  std::vector<Real> values(std::size_t(rowCount_) * width_);
  rows_.download(values.data(), values.size());
  for (int r = 0; r < rowCount_; ++r) {
    std::vector<double> row(std::size_t(width_) + 1, std::numeric_limits<double>::quiet_NaN());
    row[0] = times_[r];
    for (int q : dueInRow_[r]) {
      const Probe& p = host_[q];
      int n = p.gauge ? 1 : (withPressure_ ? kPointValues : kPointValues - 1);
      for (int c = 0; c < n; ++c) row[1 + p.column + c] = values[std::size_t(r) * width_ + p.column + c];
    }
    rows.push_back(std::move(row));
  }
  rowCount_ = 0;
  times_.clear();
  dueInRow_.clear();
}

}  // namespace eddy::EDDY_NS
