// `eddy bench --realtime`: a scene run as written (no rescaling, output off, statistics on as in
// `eddy run`), against the clock: wall time per simulated second, frame-time percentiles, and how much of
// the time the device spent in the step (the rest it waited on the host).
#pragma once

#include "bench_command.h"

namespace eddy::app {

// returns 0; throws InputError for a bad scene or flag, for main to report
int benchRealtime(const BenchOptions& o);

}  // namespace eddy::app
