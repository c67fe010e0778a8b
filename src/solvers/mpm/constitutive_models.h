// Constitutive models for MLS-MPM: the Kirchhoff stress a particle feeds into the grid and the plastic
// projection of its deformation gradient after the update F <- (I + dt C) F. The solver folds
// -(4 dt / dx^2) V0 tau into the affine momentum, as in
//   Y. Hu, Y. Fang, Z. Ge, Z. Qu, Y. Zhu, A. Pradhana, C. Jiang, "A Moving Least Squares Material Point
//   Method with Displacement Discontinuity and Two-Way Rigid Body Coupling", SIGGRAPH 2018 (eq. 29),
//   C. Jiang, C. Schroeder, J. Teran, A. Stomakhin, A. Selle, "The Material Point Method for Simulating
//   Continuum Materials", SIGGRAPH 2016 course notes.
// Models:
//   water   - equation of state on J alone, linear (A. P. Tampubolon, T. Gast, G. Klar, C. Fu, J. Teran,
//             C. Jiang, K. Museth, "Multi-species simulation of porous sand and water mixtures",
//             SIGGRAPH 2017) or Tait (M. Becker, M. Teschner, "Weakly compressible SPH for free surface
//             flows", SCA 2007);
//   elastic - fixed corotated (A. Stomakhin, R. Howes, C. Schroeder, J. Teran, "Energetically consistent
//             invertible elasticity", SCA 2012);
//   snow    - fixed corotated with hardening and singular values clamped to a band (A. Stomakhin,
//             C. Schroeder, L. Chai, J. Teran, A. Selle, "A material point method for snow simulation",
//             SIGGRAPH 2013);
//   sand    - St. Venant-Kirchhoff in Hencky strain with the Drucker-Prager return mapping of G. Klar,
//             T. Gast, A. Pradhana, C. Fu, C. Schroeder, C. Jiang, J. Teran, "Drucker-Prager
//             Elastoplasticity for Sand Animation", SIGGRAPH 2016.
#pragma once

#include <eddy/mat3.h>
#include <eddy/vec3.h>

#include <cmath>

namespace eddy {

enum class MpmMaterialType : int { Water = 0, Elastic = 1, Snow = 2, Sand = 3 };

// one material, everything in SI units; plain data that the solver copies to the device
struct MpmMaterial {
  MpmMaterialType type = MpmMaterialType::Water;
  Real density = 1000;      // rest density rho0, kg/m^3
  Real mu = 0, lambda = 0;  // Lame parameters (elastic, snow, sand), Pa
  Real bulkModulus = 0;     // water: K in the equation of state, Pa
  bool tait = false;        // water: p = K/gamma (J^-gamma - 1) instead of p = K (1 - J)
  Real gamma = 7;           // water: Tait exponent
  Real viscosity = 0;       // water: dynamic viscosity, Pa s (applied by the solver from C)
  Real criticalCompression = 2.5e-2f, criticalStretch = 7.5e-3f, hardening = 10;  // snow: thetaC, thetaS, xi
  Real frictionAlpha = 0;  // sand: Drucker-Prager alpha = sqrt(2/3) 2 sin(phi) / (3 - sin(phi))
  Real cohesion = 0;       // sand: tensile strength, Pa (the mean stress at the cone's apex); 0 = dry sand
};

// ---- host-side factories ----

inline MpmMaterial makeWater(Real density, Real bulkModulus, bool tait, Real gamma, Real viscosity) {
  MpmMaterial m;
  m.type = MpmMaterialType::Water;
  m.density = density;
  m.bulkModulus = bulkModulus;
  m.tait = tait;
  m.gamma = gamma;
  m.viscosity = viscosity;
  return m;
}

// Lame parameters from Young's modulus and Poisson's ratio: mu = E / (2 (1 + nu)),
// lambda = E nu / ((1 + nu)(1 - 2 nu))
inline MpmMaterial makeElastic(Real density, Real youngsModulus, Real poissonRatio) {
  double e = youngsModulus, nu = poissonRatio;
  MpmMaterial m;
  m.type = MpmMaterialType::Elastic;
  m.density = density;
  m.mu = Real(e / (2 * (1 + nu)));
  m.lambda = Real(e * nu / ((1 + nu) * (1 - 2 * nu)));
  return m;
}

inline MpmMaterial makeSnow(Real density, Real youngsModulus, Real poissonRatio, Real thetaC, Real thetaS,
                            Real hardening) {
  MpmMaterial m = makeElastic(density, youngsModulus, poissonRatio);
  m.type = MpmMaterialType::Snow;
  m.criticalCompression = thetaC;
  m.criticalStretch = thetaS;
  m.hardening = hardening;
  return m;
}

// the friction angle phi gives the cone's slope alpha = sqrt(2/3) 2 sin(phi) / (3 - sin(phi))
// (Klar et al. 2016, section 6.3)
inline MpmMaterial makeSand(Real density, Real youngsModulus, Real poissonRatio, Real frictionAngleDegrees) {
  MpmMaterial m = makeElastic(density, youngsModulus, poissonRatio);
  m.type = MpmMaterialType::Sand;
  double s = std::sin(double(frictionAngleDegrees) * 3.14159265358979323846 / 180.0);
  m.frictionAlpha = Real(std::sqrt(2.0 / 3.0) * 2 * s / (3 - s));
  return m;
}

// speed of the fastest small-amplitude wave at rest, for the CFL condition: sqrt((lambda + 2 mu) / rho0)
// for the solids (the P wave; snow hardening raises it by sqrt(exp(xi (1 - Jp)))), sqrt(K / rho0) for
// water. Both equations of state give dp/drho = K / rho0 at rest (p = K/gamma ((rho/rho0)^gamma - 1) is
// Tait with B = K / gamma, whose c^2 = B gamma / rho0), so the linearised speed is the same.
EDDY_HD inline Real waveSpeed(const MpmMaterial& m) {
  if (m.type == MpmMaterialType::Water) return sqrtf(m.bulkModulus / m.density);
  return sqrtf((m.lambda + 2 * m.mu) / m.density);
}

// ---- per-particle functions (host and device) ----

namespace mpm_detail {

// a J this small means the simulation has already blown up; the Tait pressure is held finite below it
inline constexpr Real kMinTaitJ = Real(1e-2);
// singular values are held above this before their logarithm (sand squashed flat)
inline constexpr Real kMinLogSigma = Real(1e-6);

// log |sigma|: an inverted F (negative sigma.z) counts as its mirror image, which the projection then
// restores; inversion is a numerical accident for sand, not a state of the material
EDDY_HD inline Vec3 logSigma(Vec3 sigma) {
  return {logf(fmaxf(fabsf(sigma.x), kMinLogSigma)), logf(fmaxf(fabsf(sigma.y), kMinLogSigma)),
          logf(fmaxf(fabsf(sigma.z), kMinLogSigma))};
}
EDDY_HD inline Vec3 expVec(Vec3 e) { return {expf(e.x), expf(e.y), expf(e.z)}; }
EDDY_HD inline Real sum(Vec3 a) { return a.x + a.y + a.z; }
EDDY_HD inline Vec3 clampVec(Vec3 a, Real lo, Real hi) {
  return {fminf(fmaxf(a.x, lo), hi), fminf(fmaxf(a.y, lo), hi), fminf(fmaxf(a.z, lo), hi)};
}

// U diag(d) U^T: a stress that is diagonal in the left singular basis
EDDY_HD inline Mat3 rotateDiagonal(const Mat3& U, Vec3 d) { return composeSvd(U, d, U); }

// fixed corotated: tau = 2 mu (F - R) F^T + lambda (J - 1) J I with R = U V^T and J = det F
EDDY_HD inline Mat3 fixedCorotatedStress(Real mu, Real lambda, const Mat3& F) {
  Mat3 U, V;
  Vec3 sigma;
  svd3(F, U, sigma, V);
  Real J = sigma.x * sigma.y * sigma.z;
  Mat3 R = U * transpose(V);
  return Real(2) * mu * ((F - R) * transpose(F)) + Mat3::identity() * (lambda * (J - 1) * J);
}

// the shift of tr(log-strain) that puts the cone's apex at mean Kirchhoff stress = cohesion: there
// tau = (3 lambda + 2 mu)/3 tr(eps) I
EDDY_HD inline Real cohesionTraceShift(const MpmMaterial& m) {
  Real k3 = 3 * m.lambda + 2 * m.mu;
  return k3 > 0 ? 3 * m.cohesion / k3 : Real(0);
}

}  // namespace mpm_detail

// water pressure from the volume ratio J = V / V0, positive in compression (J < 1):
//   linear: p = K (1 - J)                 (Tampubolon et al. 2017; also the MLS-MPM seed code)
//   Tait:   p = K / gamma (J^-gamma - 1)  (Becker & Teschner 2007 with rho / rho0 = 1 / J)
// Both are 0 at J = 1 and have dp/dJ = -K there.
EDDY_HD inline Real waterPressure(const MpmMaterial& m, Real J) {
  if (m.tait) return m.bulkModulus / m.gamma * (powf(fmaxf(J, mpm_detail::kMinTaitJ), -m.gamma) - 1);
  return m.bulkModulus * (1 - J);
}

// Kirchhoff stress tau = P(F) F^T = J sigma_cauchy.
//   J:        the volume ratio, used by water alone (tau = -p J I; F is ignored, viscosity is the solver's)
//   F:        the elastic deformation gradient of the solids; they take J = det F from F itself so that
//             the stress stays consistent with F
//   plasticJ: Jp of snow (hardening e^{xi (1 - Jp)} on mu and lambda); ignored by the others
EDDY_HD inline Mat3 kirchhoffStress(const MpmMaterial& m, const Mat3& F, Real J, Real plasticJ) {
  using namespace mpm_detail;
  switch (m.type) {
    case MpmMaterialType::Water:
      return Mat3::identity() * (-waterPressure(m, J) * J);
    case MpmMaterialType::Elastic:
      return fixedCorotatedStress(m.mu, m.lambda, F);
    case MpmMaterialType::Snow: {
      Real h = expf(m.hardening * (1 - plasticJ));
      return fixedCorotatedStress(m.mu * h, m.lambda * h, F);
    }
    case MpmMaterialType::Sand: {
      // Hencky strain eps = log(Sigma): tau = U (2 mu eps + lambda tr(eps) I) U^T
      Mat3 U, V;
      Vec3 sigma;
      svd3(F, U, sigma, V);
      Vec3 eps = logSigma(sigma);
      return rotateDiagonal(U, eps * (2 * m.mu) + Vec3{1, 1, 1} * (m.lambda * sum(eps)));
    }
  }
  return Mat3{};
}

// plastic projection of F after F <- (I + dt C) F; plasticJ (Jp) takes the volume change that plasticity
// removes from F, so Jp det F is conserved by the projection.
//   water, elastic: nothing.
//   snow: singular values clamped to [1 - thetaC, 1 + thetaS] (Stomakhin et al. 2013).
//   sand: Drucker-Prager return mapping in log-strain space (Klar et al. 2016, algorithm 2): with
//         eps = log(Sigma) and its deviator epsHat, expansion (tr(eps) > 0) goes to the apex Sigma = I;
//         otherwise dGamma = |epsHat| + (3 lambda + 2 mu)/(2 mu) tr(eps) alpha and, where dGamma > 0,
//         eps <- eps - dGamma epsHat / |epsHat|, which lands on the cone |tau_dev| + alpha tr(tau) = 0.
//         A cohesion c moves the apex to tr(eps) = 3 c / (3 lambda + 2 mu) (mean stress c).
// An inverted F (det F < 0) comes out uninverted for snow and sand: the negative singular value is
// clamped like the others and Jp takes |det F|.
EDDY_HD inline void projectPlasticity(const MpmMaterial& m, Mat3& F, Real& plasticJ) {
  using namespace mpm_detail;
  if (m.type != MpmMaterialType::Snow && m.type != MpmMaterialType::Sand) return;
  Mat3 U, V;
  Vec3 sigma;
  svd3(F, U, sigma, V);

  if (m.type == MpmMaterialType::Snow) {
    Vec3 clamped = clampVec(sigma, 1 - m.criticalCompression, 1 + m.criticalStretch);
    plasticJ *= fabsf(sigma.x * sigma.y * sigma.z) / (clamped.x * clamped.y * clamped.z);
    F = composeSvd(U, clamped, V);
    return;
  }

  Vec3 eps = logSigma(sigma);
  Real shift = cohesionTraceShift(m);
  Real traceFromApex = sum(eps) - shift;
  Vec3 projected;
  if (traceFromApex > 0) {
    // expansion: the cone's apex (Sigma = I without cohesion)
    projected = Vec3{1, 1, 1} * (shift / 3);
  } else {
    Vec3 epsHat = eps - Vec3{1, 1, 1} * (sum(eps) / 3);
    Real epsHatNorm = length(epsHat);
    Real dGamma = epsHatNorm + (3 * m.lambda + 2 * m.mu) / (2 * m.mu) * traceFromApex * m.frictionAlpha;
    bool inverted = sigma.z < 0;
    // inside the cone: F stays as it is (an inverted F is rebuilt with |sigma|)
    if (dGamma <= 0 && !inverted) return;
    // dGamma > 0 needs epsHatNorm > 0, since traceFromApex <= 0 and alpha >= 0
    projected = dGamma > 0 ? eps - epsHat * (dGamma / epsHatNorm) : eps;
  }
  plasticJ *= expf(sum(eps) - sum(projected));
  F = composeSvd(U, expVec(projected), V);
}

}  // namespace eddy
