// The embedded default scene: the same text as scenes/dam_break.json (a test checks that the two agree), so
// "eddy run" works without any scene file.
#include <eddy/scene_io.h>

namespace eddy {

const char* defaultSceneJson() {
  return R"json({
  "name": "dam_break",
  "description": "Classic dam break, the default demo: a 0.4 x 0.6 x 0.6 m water column against the -x wall of a 1.6 x 0.8 x 0.6 m tank collapses under gravity, runs along the floor and splashes up the far wall. The domain box is the tank (frictionless walls). About 18000 particles at 0.02 m spacing.",
  "solver": "pbf",
  "pbf": {
    "iterations": 4,
    "relaxation": 0.0001,
    "clamp_density": true,
    "scorr_k": 0.1,
    "scorr_n": 4,
    "scorr_dq": 0.2,
    "vorticity": 0.0,
    "xsph": 0.01
  },
  "wcsph": {
    "equation_of_state": "tait",
    "speed_of_sound": 40.0,
    "gamma": 7.0,
    "viscosity": 0.1,
    "cfl": 0.4
  },
  "fluid": {
    "rest_density": 1000.0,
    "spacing": 0.02,
    "support_ratio": 2.0
  },
  "domain": {
    "min": [0.0, 0.0, 0.0],
    "max": [1.6, 0.8, 0.6]
  },
  "time": {
    "fps": 60,
    "frames": 120,
    "substeps": 4,
    "adaptive": false
  },
  "forces": {
    "gravity": [0.0, -9.81, 0.0]
  },
  "colliders": [],
  "emitters": [
    {
      "type": "volume",
      "shape": {
        "type": "box",
        "center": [0.2, 0.3, 0.3],
        "half_extents": [0.2, 0.3, 0.3]
      },
      "lattice": "cubic"
    }
  ],
  "output": {
    "format": "ply",
    "every": 1,
    "particles": true
  }
}
)json";
}

}  // namespace eddy
