// Resuming from a checkpoint on the CUDA backend: 2n frames straight and n + checkpoint + n frames in a
// fresh simulation give bit-identical particles (every persistent attribute), solver and emitter state
// and statistics. The GPU run is deterministic (counting sorts ranked by index, gather transfers, CUB
// reductions of a fixed size), so nothing less than bit equality is accepted. Skips without a GPU.
#include <eddy/backend.h>
#include <gtest/gtest.h>

#include "checkpoint_harness.h"
#include "test_support.h"

using namespace eddy;

namespace {

void resumeOnGpu(const SceneDesc& scene, int n) {
  if (!cudaAvailable()) GTEST_SKIP() << "no CUDA GPU on this machine";
  test::expectBitIdenticalResume(scene, Backend::Cuda, n);
}

}  // namespace

TEST(GpuCheckpoint, ResumePbfIsBitIdentical) { resumeOnGpu(loadScene("", {"fluid.spacing=0.04"}), 5); }

TEST(GpuCheckpoint, ResumeWcsphIsBitIdentical) {
  resumeOnGpu(loadScene("", {"fluid.spacing=0.04", "solver=wcsph"}), 5);
}

TEST(GpuCheckpoint, ResumeMpmWaterIsBitIdentical) {
  resumeOnGpu(loadScene("", {"fluid.spacing=0.04", "solver=mpm", "mpm.grid_resolution=20"}), 5);
}

TEST(GpuCheckpoint, ResumeMpmElasticBallInWaterIsBitIdentical) {
  resumeOnGpu(test::sceneFile("scenes/mpm_elastic_ball_water.json",
                              {"fluid.spacing=0.025", "mpm.grid_resolution=12"}),
              8);
}

TEST(GpuCheckpoint, ResumeWithNozzleIsBitIdentical) {
  resumeOnGpu(loadScene("", test::volumeAndNozzleOverrides()), 6);
}
