// `eddy bench --render`: drawing particles alone (the GPU's time for the draw, from a GL timer query; and the
// wall clock with the particles' upload and the image's read-back), on the dam break's particles after it
// has run a while, at several particle counts.
#pragma once

#include <eddy/backend.h>
#include <eddy/scene.h>

#include "bench_command.h"

namespace eddy::app {

// 0 when every size ran, 1 when some were skipped
int benchRender(const BenchOptions& o, const SceneDesc& base, double volume, Backend backend);

}  // namespace eddy::app
