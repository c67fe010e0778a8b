// What a simulation is made of: the solvers' settings, the fluid, the domain, the clock, the colliders,
// emitters, surfaces and probes. Plain structs with defaults that map one-to-one to scene-file keys (key
// names beside each member; docs/scene-format.md documents units and ranges). This is all the engine sees
// of a scene: how it is drawn and written (<eddy/scene.h>) stays with the host code that does that.
#pragma once

#include <eddy/vec3.h>

#include <memory>
#include <string>
#include <vector>

namespace eddy {

struct TriangleMesh;  // <eddy/mesh.h>

// Position Based Fluids, Macklin & Mueller 2013 (scene section "pbf")
struct PbfSettings {
  int iterations = 4;          // "iterations": solver iterations per substep, 1..100
  Real relaxation = 1e-4f;     // "relaxation": epsilon in lambda's denominator, relative to 1/spacing^2, > 0
  bool clampDensity = true;    // "clamp_density": use C_i >= 0 (no attraction at the free surface)
  Real scorrK = 0.1f;          // "scorr_k": tensile-instability strength k, >= 0
  Real scorrN = 4.0f;          // "scorr_n": exponent n, 1..8
  Real scorrDq = 0.2f;         // "scorr_dq": delta q as a fraction of h, 0..1
  Real overRelaxation = 1.0f;  // "over_relaxation": omega scaling each correction dp, [1, 2)
  Real constraintAveraging = 0.0f;  // "constraint_averaging": a, dp / max(a n_i, 1) with n_i neighbours;
                                    // damps the step (0 = off), >= 0
  Real vorticity = 0.0f;            // "vorticity": confinement strength epsilon_vort, >= 0
  Real xsph = 0.01f;                // "xsph": XSPH viscosity c, 0..1
  Real maxVelocityChange = 0.0f;    // "max_velocity_change": cap on |dv| per substep in m/s; 0 = none
  int maxNeighbors = 0;             // "max_neighbors": neighbour cap, the nearest are kept; 0 = none
};

// Weakly compressible SPH, Mueller, Charypar & Gross 2003 (scene section "wcsph")
struct WcsphSettings {
  std::string equationOfState = "tait";  // "equation_of_state": "tait" | "linear"
  Real speedOfSound = 30.0f;             // "speed_of_sound": m/s (Tait stiffness B = rho0 c^2 / gamma), > 0
  Real gamma = 7.0f;                     // "gamma": Tait exponent, 1..10
  Real stiffness = 1000.0f;              // "stiffness": linear k in p = k (rho - rho0), m^2/s^2, > 0
  Real viscosity = 0.1f;  // "viscosity": alpha; mu = alpha rho0 h c / 10 (Monaghan scale), >= 0
  Real cfl = 0.4f;        // "cfl": Courant number for the substep size, 0..1
  // "density": "continuity" (the density is integrated by the continuity equation, with delta-SPH
  // diffusion) | "summation" (recomputed each substep as a kernel sum, Mueller et al. 2003)
  std::string density = "continuity";
  // "density_diffusion": delta of the delta-SPH diffusion term (Molteni & Colagrossi 2009, Fourtakas et al.
  // 2019), 0..1; 0 = off. Continuity density only.
  Real densityDiffusion = 0.1f;
};

// Divergence-free SPH, Bender & Koschier 2015, 2017 (scene section "dfsph")
struct DfsphSettings {
  Real cfl = 0.4f;  // "cfl": substep <= cfl spacing / fastest speed (and the frame's substep), 0..1
  // "pressure_solver": how the constant-density solve iterates: "conjugate_gradient" (converges in a number
  // of iterations that grows with the water's depth, not its square) | "jacobi" (the papers')
  std::string pressureSolver = "conjugate_gradient";
  // "max_density_error": the constant-density solve iterates until the mean density error is below this,
  // > 0: conjugate gradients count |rho* / rho0 - 1| over the particles they solve for, Jacobi iterations
  // (and those after conjugate gradients) the compression max(0, rho* / rho0 - 1). The default suits
  // conjugate gradients; with "jacobi" and no value given it is kJacobiDensityError.
  Real maxDensityError = 0.00001f;
  static constexpr Real kJacobiDensityError = 0.0005f;  // SPlisHSPlasH's 0.05 %
  // "max_divergence_error": the divergence solve iterates until the mean density change one substep
  // would bring, dt max(0, d rho / dt) / rho0, is below this, > 0
  Real maxDivergenceError = 0.001f;
  // "min_iterations": fewest iterations of the constant-density solve (Jacobi iterations, or the first of
  // conjugate gradients' two solves), >= 1
  int minIterations = 2;
  // "max_iterations": most iterations of each solve (with conjugate gradients, of each of their two passes
  // and of the Jacobi iterations after them), >= min_iterations (at 100 the Buchner dam break at H/80
  // stopped short of converging in its impact and was thrown about at 28 m/s)
  int maxIterations = 200;
  bool divergenceSolve = true;  // "divergence_solve": run the divergence-free solve
  // "xsph": XSPH viscosity c, 0..1 (at 0.01 a tank at rest kept 0.23 J of kinetic energy after 2.5 s, at
  // 0.1 2.5 mJ)
  Real xsph = 0.1f;
};

// Moving Least Squares MPM, Hu et al. 2018 (scene section "mpm")
struct MpmSettings {
  int gridResolution = 64;                 // "grid_resolution": cells along the longest domain extent, >= 4
  std::string transfer = "apic";           // "transfer": "apic" | "pic" | "flip"
  Real flipRatio = 0.95f;                  // "flip_ratio": FLIP share alpha of the "flip" transfer, 0..1
  std::string boundary = "separate";       // "boundary": "separate" | "slip" | "sticky"
  std::string equationOfState = "linear";  // "equation_of_state": water, "linear" | "tait"
  Real bulkModulus = 1e6f;                 // "bulk_modulus": water bulk modulus K, Pa, > 0
  Real gamma = 7.0f;                       // "gamma": Tait exponent, 1..10
  Real viscosity = 0.0f;                   // "viscosity": water dynamic viscosity, Pa s, >= 0
  Real cfl = 0.4f;                         // "cfl": Courant number on particle speed plus wave speed, 0..1
};

// fluid material shared by every solver (scene section "fluid")
struct FluidDesc {
  Real restDensity = 1000.0f;  // "rest_density": kg/m^3, > 0
  Real spacing = 0.02f;        // "spacing": rest particle spacing in m, > 0
  Real supportRatio = 2.0f;    // "support_ratio": kernel support h = support_ratio * spacing, (1, 4]
};

// simulation bounds; particles are held inside (section "domain")
struct DomainDesc {
  Vec3 min{-1, 0, -1};  // "min": m
  Vec3 max{1, 2, 1};    // "max": m
};

// frames and substeps (section "time")
struct TimeDesc {
  Real fps = 60.0f;        // "fps": output frames per simulated second, > 0
  int frames = 120;        // "frames": number of frames to run, >= 1
  int substeps = 4;        // "substeps": substeps per frame (the minimum when cfl is on), >= 1
  bool adaptive = false;   // "adaptive": also limit substeps by a CFL condition on velocity
  Real cfl = 0.4f;         // "cfl": Courant number for adaptive substeps, 0..1
  int maxSubsteps = 1000;  // "max_substeps": upper limit on substeps per frame
};

// a box a mesh is fitted into ("fit_into"): its largest uniform scale, centred; unset while max <= min
struct FitBox {
  Vec3 min{0, 0, 0};  // "min": m
  Vec3 max{0, 0, 0};  // "max": m
  bool set() const { return max.x > min.x || max.y > min.y || max.z > min.z; }
};

// an analytic signed-distance shape, shared by colliders and volume emitters
struct ShapeDesc {
  std::string type = "box";   // "type": "plane" | "box" | "sphere" | "capsule" | "cylinder"
  Vec3 center{0, 0, 0};       // "center": m (for a plane: a point on it)
  Vec3 halfExtents{1, 1, 1};  // "half_extents": box half sizes, m
  Real radius = 0.5f;         // "radius": sphere, capsule, cylinder radius, m
  Real halfHeight = 0.5f;     // "half_height": capsule/cylinder half length along local y, m
  Vec3 normal{0, 1, 0};       // "normal": plane normal (pointing into the fluid side)
  Vec3 rotation{0, 0, 0};     // "rotation": Euler angles x, y, z in degrees (applied x then y then z)
  Quat quaternion{};          // "quaternion": [w, x, y, z], the orientation instead of "rotation"
  // a triangle mesh ("type": "mesh"): its vertices scaled, then rotated, then moved by translation
  std::string file;           // "file": OBJ or PLY, relative to the scene file (made absolute when read)
  Real scale = 1;             // "scale": uniform scale of the vertices
  Vec3 translation{0, 0, 0};  // "translation": m, where the mesh's origin goes
  int sdfResolution = 256;    // "sdf_resolution": distance-field nodes along the mesh's longest side
  Real thickness = 0;         // "thickness": m; > 0 makes the mesh a thin shell (it may then be open)
  FitBox fitInto;             // "fit_into": scale and translation chosen to fit the turned mesh in a box
  // the file's mesh, read with the scene (loadSceneMeshes, <eddy/scene_io.h>): the engine reads no files.
  // Null where it could not be read (meshError says why: a simulation of the scene refuses it, naming the
  // key) or has not been read (a scene made in code, before loadSceneMeshes)
  std::shared_ptr<const TriangleMesh> mesh;
  std::string meshError;
};

// one pose of a keyframed collider (an element of the collider's "keyframes" list)
struct KeyframeDesc {
  Real time = 0;              // "time": s, >= 0, strictly increasing along the list (required)
  Vec3 translation{0, 0, 0};  // "translation": m, where the shape's center (a mesh's origin) goes (required)
  Vec3 rotation{0, 0, 0};     // "rotation": the shape's Euler angles x, y, z in degrees, as ShapeDesc's
};

struct ColliderDesc {
  std::string name;               // "name": optional label
  ShapeDesc shape;                // "shape"
  bool container = false;         // "container": fluid lives inside the shape (a tank)
  Vec3 linearVelocity{0, 0, 0};   // "linear_velocity": m/s, prescribed motion
  Vec3 angularVelocity{0, 0, 0};  // "angular_velocity": rad/s about the shape center
  Real restitution = 0.0f;        // "restitution": e, 0..1
  Real friction = 0.0f;           // "friction": dynamic friction mu_k, >= 0
  Real staticFriction = 0.0f;     // "static_friction": static friction mu_s (PBF position level), >= 0
  // "density": kg/m^3, >= 0; above 0 the collider is a rigid body that gravity pulls and the fluid pushes
  // (every solver; a box, sphere, capsule, cylinder or closed mesh, neither a container nor keyframed),
  // starting with linear_velocity and angular_velocity
  Real density = 0.0f;
  // "locks": a rigid body's motions that are held, any of "x" "y" "z" (translation along a world axis) and
  // "rx" "ry" "rz" (rotation about one through the centre), separated by spaces or commas: "x z rx ry" lets
  // a body heave and turn about z only, "x y z rx ry" makes a hinge about z. Empty: none
  std::string locks;
  // "hinge_axis": a rigid body that turns about this world direction only, through "hinge_point" (m, a point
  // of the axis), as a door or a flap gate does; [0, 0, 0]: no hinge. Not with locks
  Vec3 hingeAxis{0, 0, 0};
  Vec3 hingePoint{0, 0, 0};
  // "keyframes": rigid motion through these poses (none, or at least 2): the translation interpolated
  // linearly, the rotation by slerp; the first pose holds before the first time, the last after the last
  std::vector<KeyframeDesc> keyframes;
};

// what an emitter's particles are made of (the "material" object of an emitter); PBF and WCSPH take water
// only, MPM every type
struct MaterialDesc {
  std::string type = "water";          // "type": "water" | "elastic" | "snow" | "sand"
  Real density = 0.0f;                 // "density": rest density, kg/m^3; 0 = fluid.rest_density, >= 0
  Real youngsModulus = 1e5f;           // "youngs_modulus": E of elastic, snow and sand, Pa, > 0
  Real poissonRatio = 0.2f;            // "poisson_ratio": nu, in (-1, 0.5)
  Real frictionAngle = 30.0f;          // "friction_angle": sand, degrees, [0, 90)
  Real cohesion = 0.0f;                // "cohesion": sand tensile strength, Pa, >= 0
  Real criticalCompression = 2.5e-2f;  // "critical_compression": snow theta_c, (0, 1)
  Real criticalStretch = 7.5e-3f;      // "critical_stretch": snow theta_s, > 0
  Real hardening = 10.0f;              // "hardening": snow hardening xi, >= 0
};

struct EmitterDesc {
  std::string type = "volume";  // "type": "volume" | "nozzle"
  // volume emitter: fill a shape (or the inside of the collider named by "collider")
  ShapeDesc shape;                // "shape"
  std::string collider;           // "collider": fill the inside of this collider instead of "shape"
  std::string lattice = "cubic";  // "lattice": "cubic" | "bcc"
  // "jitter": random offset as a fraction of spacing, 0..0.5. A volume emitter of sand or snow whose scene
  // gives no "jitter" gets kGranularJitter (the reader fills it in, so scene.json shows it): their plastic
  // flow keeps the start's lattice, and a sand column sampled on it settles into a heap of radial rods of
  // particles (docs/validation.md).
  Real jitter = 0.0f;
  static constexpr Real kGranularJitter = 0.3f;
  unsigned seed = 1;  // "seed": jitter random seed
  // "pressure": "zero" | "hydrostatic": the pressure a volume emitter's water starts with; hydrostatic is
  // rho0 |g| times the depth below the top of its column (sim/hydrostatic_start.h), which WCSPH starts
  // its density at, so that water at rest stays at rest instead of settling under its own weight
  std::string pressure = "zero";
  Vec3 velocity{0, 0, 0};         // "velocity": initial linear velocity, m/s
  Vec3 angularVelocity{0, 0, 0};  // "angular_velocity": initial spin about the shape center, rad/s
  // nozzle emitter: a disc spawning particles along its direction
  Vec3 position{0, 0, 0};           // "position": disc center, m
  Vec3 direction{1, 0, 0};          // "direction": emission direction
  Real radius = 0.05f;              // "radius": disc radius, m
  Real speed = 1.0f;                // "speed": m/s, > 0
  Real rate = 0.0f;                 // "rate": particles per second; 0 = as many as the disc holds
  long long maxParticles = 100000;  // "max_particles": budget for this emitter
  Real start = 0.0f;                // "start": emission start time, s
  Real stop = 1e30f;                // "stop": emission end time, s
  MaterialDesc material;            // "material"
};

// body forces (section "forces")
struct ForcesDesc {
  Vec3 gravity{0, -9.81f, 0};  // "gravity": m/s^2
  Vec3 windVelocity{0, 0, 0};  // "wind_velocity": m/s
  Real drag = 0.0f;            // "drag": c_d in f = -c_d (v - v_wind) per unit mass, 1/s, >= 0
};

// liquid surfaces built on the device every frame that particles are due (section "surface"): a present
// section turns them on unless it says "enabled": false; `eddy run --surface` does the same
struct SurfaceDesc {
  bool enabled = false;                // "enabled"
  std::string method = "zhu-bridson";  // "method": "zhu-bridson" | "yu-turk" | "sph-density"
  Real cell = Real(2) / 3;             // "cell": grid spacing, in particle spacings (Zhu & Bridson: h / 3)
  Real radius = 2;                     // "radius": kernel radius, in particle spacings
  int smooth = 0;                      // "smooth": Taubin smoothing iterations
  std::string format = "ply";          // "format": "ply" (binary, with normals) | "obj"
  // "groups": "material" (MPM: one surface per material type, water apart from sand and snow, written as
  // surface_<type>_NNNNNN) | "all" (one surface of every particle)
  std::string groups = "material";
};
// a measuring point (an element of the scene's "probes" list); `eddy run` writes probes.csv
struct ProbeDesc {
  std::string name;            // "name": required, unique, letters, digits, '_' and '-' (a CSV column prefix)
  std::string type = "point";  // "type": "point" (pressure, density, velocity at position) | "gauge"
                               // (free-surface elevation on the vertical line through position)
  Vec3 position{0, 0, 0};      // "position": m, inside the domain (required)
  Real every = 0;              // "every": s of simulated time between samples, >= 0; 0 = once per frame
  Vec3 face{0, 0, 0};          // "face": m, point probes: the extent of a sensor face centred at position
                               // (each component >= 0; 0 0 0 = a point), whose readings are averaged
};

// the physics of a scene: everything the engine reads
struct SimulationDesc {
  std::string name = "scene";           // "name"
  std::string solver = "pbf";           // "solver": a registered solver name ("pbf", "wcsph", "dfsph", "mpm")
  PbfSettings pbf;                      // "pbf"
  WcsphSettings wcsph;                  // "wcsph"
  DfsphSettings dfsph;                  // "dfsph"
  MpmSettings mpm;                      // "mpm"
  FluidDesc fluid;                      // "fluid"
  DomainDesc domain;                    // "domain"
  TimeDesc time;                        // "time"
  ForcesDesc forces;                    // "forces"
  std::vector<ColliderDesc> colliders;  // "colliders"
  std::vector<EmitterDesc> emitters;    // "emitters"
  SurfaceDesc surface;                  // "surface"
  std::vector<ProbeDesc> probes;        // "probes"
  std::string sourcePath;               // file the scene came from ("<default>" for the embedded one)
};

}  // namespace eddy
