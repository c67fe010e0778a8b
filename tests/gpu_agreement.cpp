// The CPU and CUDA backends run the same engine source; after the same substeps their frame statistics must
// agree to float round-off growth (summation order and fused multiply-adds differ, nothing else).
#include <eddy/backend.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace eddy;

namespace {

FrameStats runSubsteps(const SceneDesc& scene, Backend backend, Real dt, int substeps) {
  auto sim = createSimulation(scene, backend);
  EXPECT_EQ(sim->backend(), backend);
  for (int s = 0; s < substeps; ++s) sim->advanceSubstep(dt);
  return sim->stats();
}

double relativeDifference(double a, double b) {
  double scale = std::max(std::abs(a), std::abs(b));
  return scale > 0 ? std::abs(a - b) / scale : 0;
}

void printRow(const char* name, double cpu, double gpu, double rel) {
  std::printf("  %-22s %16.9g %16.9g %12.3g\n", name, cpu, gpu, rel);
}

void expectAgreement(const std::vector<std::string>& overrides, bool wcsph) {
  SceneDesc scene = loadScene("", overrides);
  Real dt;
  if (wcsph) {
    // the acoustic limit at Courant number 0.4
    Real h = scene.fluid.supportRatio * scene.fluid.spacing;
    dt = Real(0.4) * h / scene.wcsph.speedOfSound;
  } else {
    dt = Real(1) / (scene.time.fps * Real(scene.time.substeps));
  }
  const int substeps = 50;
  FrameStats c = runSubsteps(scene, Backend::Cpu, dt, substeps);
  FrameStats g = runSubsteps(scene, Backend::Cuda, dt, substeps);

  Vec3 domain = scene.domain.max - scene.domain.min;
  const double tol = 1e-3;
  std::printf("%s, %d substeps of %.6g s on %s\n", scene.solver.c_str(), substeps, double(dt),
              cudaDeviceName().c_str());
  std::printf("  %-22s %16s %16s %12s\n", "statistic", "cpu", "cuda", "rel. diff");
  printRow("particles", double(c.particles), double(g.particles), relativeDifference(c.particles, g.particles));
  printRow("kinetic energy", c.kineticEnergy, g.kineticEnergy, relativeDifference(c.kineticEnergy, g.kineticEnergy));
  printRow("mean density error", c.meanDensityError, g.meanDensityError,
           relativeDifference(c.meanDensityError, g.meanDensityError));
  printRow("max density error", c.maxDensityError, g.maxDensityError,
           relativeDifference(c.maxDensityError, g.maxDensityError));
  printRow("max speed", c.maxSpeed, g.maxSpeed, relativeDifference(c.maxSpeed, g.maxSpeed));
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    double size = (&domain.x)[a];
    double lo0 = (&c.boundsMin.x)[a], lo1 = (&g.boundsMin.x)[a];
    double hi0 = (&c.boundsMax.x)[a], hi1 = (&g.boundsMax.x)[a];
    printRow((std::string("bounds min ") + axes[a]).c_str(), lo0, lo1, std::abs(lo0 - lo1) / size);
    printRow((std::string("bounds max ") + axes[a]).c_str(), hi0, hi1, std::abs(hi0 - hi1) / size);
    EXPECT_LE(std::abs(lo0 - lo1), tol * size) << "bounds min " << axes[a];
    EXPECT_LE(std::abs(hi0 - hi1), tol * size) << "bounds max " << axes[a];
  }
  std::fflush(stdout);

  EXPECT_EQ(c.particles, g.particles);
  EXPECT_GT(c.particles, 0);
  EXPECT_EQ(c.substeps, g.substeps);
  EXPECT_NEAR(c.time, g.time, 1e-9);
  EXPECT_LE(relativeDifference(c.kineticEnergy, g.kineticEnergy), tol)
      << "kinetic energy " << c.kineticEnergy << " vs " << g.kineticEnergy;
  EXPECT_LE(relativeDifference(c.maxSpeed, g.maxSpeed), tol) << "max speed " << c.maxSpeed << " vs " << g.maxSpeed;
  // a density error near zero is all round-off; compare only where there is one
  if (std::max(c.meanDensityError, g.meanDensityError) > 1e-6)
    EXPECT_LE(relativeDifference(c.meanDensityError, g.meanDensityError), tol)
        << "mean density error " << c.meanDensityError << " vs " << g.meanDensityError;
  // the runs moved: agreement of two frozen states would prove nothing
  EXPECT_GT(c.kineticEnergy, 0);
}

}  // namespace

TEST(GpuAgreement, DamBreakPbf) {
  if (!eddy::cudaAvailable()) GTEST_SKIP() << "no CUDA GPU on this machine";
  expectAgreement({"fluid.spacing=0.04"}, false);
}

TEST(GpuAgreement, DamBreakWcsph) {
  if (!eddy::cudaAvailable()) GTEST_SKIP() << "no CUDA GPU on this machine";
  expectAgreement({"fluid.spacing=0.04", "solver=wcsph"}, true);
}
