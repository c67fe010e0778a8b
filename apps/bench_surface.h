// `eddy bench --surface`: surface reconstruction alone, on the particles of a dam break after it has run
// a while, at several particle counts, for each method.
#pragma once

#include <eddy/backend.h>
#include <eddy/scene.h>

#include "bench_command.h"

namespace eddy::app {

// 0 when every size ran, 1 when some were skipped
int benchSurface(const BenchOptions& o, const SceneDesc& base, double volume, Backend backend);

}  // namespace eddy::app
