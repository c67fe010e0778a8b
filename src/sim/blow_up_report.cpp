#include "sim/blow_up_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace eddy {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string vec(Vec3 v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.4g, %.4g, %.4g)", double(v.x), double(v.y), double(v.z));
  return buf;
}

// the solver's stiffness keys, which set how short a stable substep must be
std::string stiffnessAdvice(const SimulationDesc& s) {
  char buf[160];
  if (s.solver == "wcsph" && s.wcsph.equationOfState == "linear") {
    std::snprintf(buf, sizeof buf, "lower wcsph.stiffness (now %g m^2/s^2)", double(s.wcsph.stiffness));
    return buf;
  }
  if (s.solver == "wcsph") {
    std::snprintf(buf, sizeof buf, "lower wcsph.speed_of_sound (now %g m/s; 10x the fastest flow is enough)",
                  double(s.wcsph.speedOfSound));
    return buf;
  }
  if (s.solver == "dfsph") {
    std::snprintf(buf, sizeof buf, "lower dfsph.cfl (now %g) or dfsph.max_density_error (now %g)",
                  double(s.dfsph.cfl), double(s.dfsph.maxDensityError));
    return buf;
  }
  if (s.solver == "mpm")
    return "lower mpm.bulk_modulus or the materials' youngs_modulus, or lower mpm.grid_resolution (coarser "
           "cells allow longer substeps)";
  return "raise pbf.iterations (now " + std::to_string(s.pbf.iterations) + ") or pbf.relaxation";
}

// what lengthens the stable substep itself, for a run that needs more substeps than time.max_substeps
std::string longerSubstepAdvice(const SimulationDesc& s) {
  if (s.solver == "dfsph") {
    char buf[160];
    std::snprintf(buf, sizeof buf, "raise dfsph.cfl (now %g; the papers' 0.4 is the usual choice)",
                  double(s.dfsph.cfl));
    return buf;
  }
  return stiffnessAdvice(s);
}

}  // namespace

bool findOffendingParticle(const HostParticles& p, Vec3 lo, Vec3 hi, std::size_t& index) {
  bool found = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    Vec3 x = p.position[i];
    bool bad = !finite(x) || !finite(p.velocity[i]) || x.x < lo.x || x.y < lo.y || x.z < lo.z || x.x > hi.x ||
               x.y > hi.y || x.z > hi.z;
    if (bad && (!found || (!p.id.empty() && p.id[i] < p.id[index]))) {
      index = i;
      found = true;
    }
  }
  return found;
}

std::string blowUpMessage(const BlowUpFacts& f, const SimulationDesc& s, const HostParticles& p) {
  std::string where = "the simulation blew up in frame " + std::to_string(f.frame) + ", substep " +
                      std::to_string(f.substep) + " (solver " + f.solver + ")";
  if (f.kind == BlowUpKind::SubstepTooShort) {
    // the substeps a frame would need at the stable substep (bounded, for a printable integer)
    double needed = f.neededDt > 0 ? std::ceil(1.0 / (double(s.time.fps) * f.neededDt) - 1e-6) : 1e12;
    needed = std::min(needed, 1e12);
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "the simulation stopped in frame %d, substep %lld (solver %s) before passing its stability "
                  "limit: a stable substep is %.3g s (%.0f substeps a frame), but time.max_substeps = %d "
                  "allows no shorter than %.3g s here",
                  f.frame, (long long)f.substep, f.solver.c_str(), f.neededDt, needed, s.time.maxSubsteps,
                  f.allowedDt);
    return std::string(buf) +
           ". Likely cause: particles faster than the CFL bound allows at this frame rate, or a stiffness "
           "too high for it. Change: raise time.max_substeps to " +
           std::to_string((long long)needed) + " or more, or " + longerSubstepAdvice(s);
  }
  std::string who = "a particle";
  std::size_t i = f.index;
  if ((f.known && i < p.size()) || findOffendingParticle(p, f.lo, f.hi, i)) {
    Vec3 x = f.known ? f.position : p.position[i], v = p.velocity[i];
    who = "particle " + (p.id.empty() ? "#" + std::to_string(i) : "id " + std::to_string(p.id[i])) + " at " +
          vec(x) + " m with velocity " + vec(v) + " m/s";
    if (!finite(x) || !finite(v))
      who += " is not finite";
    else
      who += " left the domain " + vec(s.domain.min) + " .. " + vec(s.domain.max) + " far behind";
  } else {
    who = "a particle position or velocity was not finite or far outside the domain";
  }
  return where + ": " + who +
         ". Likely cause: the substep is too long for the stiffness, or a collider pushing particles out "
         "too far (a fast moving or overlapping collider). Change: raise time.substeps (now " +
         std::to_string(s.time.substeps) + ") or set time.adaptive, " + stiffnessAdvice(s) +
         ", or slow the colliders down";
}

}  // namespace eddy
