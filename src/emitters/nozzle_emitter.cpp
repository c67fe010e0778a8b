#include "emitters/nozzle_emitter.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

namespace eddy {

namespace {
// points in the square around the disc (a layer holds pi/4 of them): radius / spacing up to 500
constexpr double kMaxLayerPoints = 1e6;
}  // namespace

NozzleEmitter::NozzleEmitter(const EmitterDesc& e, Real spacing) : desc_(e) {
  if (!(spacing > 0)) throw InputError("nozzle emitter: spacing must be positive");
  if (!(e.radius > 0)) throw InputError("nozzle emitter: radius must be positive");
  if (!(e.speed > 0)) throw InputError("nozzle emitter: speed must be positive");
  if (!(e.rate >= 0)) throw InputError("nozzle emitter: rate must be non-negative");
  if (e.maxParticles < 0) throw InputError("nozzle emitter: max_particles must be non-negative");
  if (!(length(e.direction) > Real(1e-12))) throw InputError("nozzle emitter: direction must be non-zero");
  dir_ = e.direction / length(e.direction);

  // orthonormal basis of the disc plane
  Vec3 helper = fabsf(dir_.x) < Real(0.9) ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  Vec3 u = normalizeOr(cross(dir_, helper), Vec3{0, 0, 1});
  Vec3 w = cross(dir_, u);

  // square lattice centred on the disc, clipped to it (the centre point always fits)
  const double s = spacing, r2 = double(e.radius) * e.radius * (1 + 1e-9);
  const double half = std::floor(double(e.radius) / s);
  // checked in floating point before the count becomes an integer: radius / spacing can overflow long
  // long (undefined behaviour), and a disc of millions of points per layer would take minutes to build
  // (both found by fuzzing)
  const double square = (2 * half + 1) * (2 * half + 1);
  if (!(square <= kMaxLayerPoints)) {
    std::ostringstream os;
    os << "nozzle emitter: a disc of radius " << e.radius << " holds about " << square
       << " lattice points per layer at spacing " << spacing << " (limit " << kMaxLayerPoints
       << "); use a larger spacing or a smaller radius";
    throw InputError(os.str());
  }
  const long long m = static_cast<long long>(half);
  for (long long j = -m; j <= m; ++j) {
    for (long long i = -m; i <= m; ++i) {
      double a = double(i) * s, b = double(j) * s;
      if (a * a + b * b <= r2) layer_.push_back(u * Real(a) + w * Real(b));
    }
  }
  // a fixed permutation (Fisher-Yates on raw draws, the same on every standard library) so that thinned
  // layers spread over the disc
  std::mt19937 rng(e.seed);
  for (std::size_t i = layer_.size(); i > 1; --i) std::swap(layer_[i - 1], layer_[rng() % i]);

  interval_ = s / double(e.speed);
  if (e.rate > 0 && double(e.rate) > maxRate() * (1 + 1e-6)) {
    std::ostringstream os;
    os << "nozzle emitter: rate " << e.rate << " particles/s exceeds the maximum " << maxRate()
       << " that a disc of radius " << e.radius << " at speed " << e.speed << " holds at spacing " << spacing;
    throw InputError(os.str());
  }
}

double NozzleEmitter::maxRate() const { return double(layer_.size()) / interval_; }

void NozzleEmitter::emit(Real time, Real dt, EmittedParticles& out) {
  // the caller's buffers keep their capacity: no allocation per substep once they have grown
  out.position.clear();
  out.velocity.clear();
  const double tEnd = double(time) + double(dt);
  const double stop = desc_.stop;
  if (!(dt > 0)) return;
  if (!started_) {
    // the first layer leaves at the start time, or now if the simulation begins later
    double first = std::max(double(desc_.start), double(time));
    if (first >= tEnd || first > stop) return;
    nextRelease_ = first;
    started_ = true;
  }
  const Vec3 velocity = dir_ * desc_.speed;
  const std::size_t full = layer_.size();
  while (nextRelease_ < tEnd && nextRelease_ <= stop && emitted_ < desc_.maxParticles) {
    std::size_t count = full;
    if (desc_.rate > 0) {
      rateCarry_ += double(desc_.rate) * interval_;
      count = std::min(full, static_cast<std::size_t>(std::floor(rateCarry_)));
      rateCarry_ = std::min(rateCarry_ - double(count), 1.0);
    }
    count = static_cast<std::size_t>(
        std::min<long long>(static_cast<long long>(count), desc_.maxParticles - emitted_));
    // the layer has travelled speed * (tEnd - release) by the end of this call's interval
    const Vec3 base = desc_.position + dir_ * Real(double(desc_.speed) * (tEnd - nextRelease_));
    for (std::size_t c = 0; c < count; ++c) {
      std::size_t idx = desc_.rate > 0 ? (cursor_ + c) % full : c;
      out.position.push_back(base + layer_[idx]);
      out.velocity.push_back(velocity);
    }
    if (desc_.rate > 0) cursor_ = (cursor_ + count) % full;
    emitted_ += static_cast<long long>(count);
    nextRelease_ += interval_;
  }
}

void NozzleEmitter::skip(Real time, Real dt) {
  // not started: the first layer leaves when the nozzle is next active (emit's rule)
  const double tEnd = double(time) + double(dt);
  while (started_ && nextRelease_ < tEnd) nextRelease_ += interval_;
}

NozzleState NozzleEmitter::state() const {
  return NozzleState{nextRelease_, started_, rateCarry_, std::uint64_t(cursor_), std::int64_t(emitted_)};
}

void NozzleEmitter::checkState(const NozzleState& s) const {
  if (layer_.empty() || s.cursor >= layer_.size() || s.emitted < 0 || s.emitted > desc_.maxParticles)
    throw InputError("nozzle emitter: saved state (cursor " + std::to_string(s.cursor) + ", " +
                     std::to_string(s.emitted) + " emitted) does not fit this nozzle (" +
                     std::to_string(layer_.size()) + " points per layer, at most " +
                     std::to_string(desc_.maxParticles) + " particles)");
}

void NozzleEmitter::restore(const NozzleState& s) {
  checkState(s);
  nextRelease_ = s.nextRelease;
  started_ = s.started;
  rateCarry_ = s.rateCarry;
  cursor_ = std::size_t(s.cursor);
  emitted_ = s.emitted;
}

EmittedParticles NozzleEmitter::emit(Real time, Real dt) {
  EmittedParticles out;
  emit(time, dt, out);
  return out;
}

}  // namespace eddy
