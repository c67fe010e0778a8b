// A scene file in full: the simulation's physics (<eddy/simulation_desc.h>) and how a run writes and draws
// it. Plain structs with defaults that map one-to-one to scene-file keys (key names beside each member;
// docs/scene-format.md documents units and ranges). Code compiled for both backends includes only the
// physics: the build refuses this header there.
#pragma once

#if defined(EDDY_ENGINE_SOURCE)
#error \
    "engine code sees a scene through <eddy/simulation_desc.h>; how it is written and drawn is not its business"
#endif

#include <eddy/simulation_desc.h>

#include <string>

namespace eddy {

// output (section "output")
struct OutputDesc {
  std::string format = "ply";  // "format": "ply" | "vtk"
  int every = 1;               // "every": write particles every n-th frame, >= 1
  bool particles = true;       // "particles": write particle caches
};
// how the scene is drawn (`eddy render`, whose flags override these keys)
struct RenderDesc {
  std::string mode = "particles";  // "mode": "particles" | "ssfr" | "surface"
  // "frame": the camera frames every frame's particles from the front, above and to the right; false
  // (the default once "camera" or "target" is given) places it at "camera", looking at "target"
  bool frame = true;
  Vec3 camera{2, 1.5f, 3};      // "camera": m
  Vec3 target{0, 0, 0};         // "target": m
  Real fov = 40;                // "fov": vertical field of view, degrees, (1, 170)
  Vec3 sun{0.3f, 0.9f, 0.35f};  // "sun": direction towards the sun, non-zero
  // "environment": an equirectangular PNG (longitude across, the zenith at the top; relative to the
  // scene file) reflected by the water in place of the procedural sky; "" for the sky
  std::string environment;
  Vec3 absorption{4.0f, 1.1f, 0.7f};  // "absorption": Beer–Lambert coefficients per metre of water, RGB, ≥ 0
  Vec3 colorLow{0.10f, 0.30f, 0.85f};   // "color_low": particles at rest, RGB 0..1
  Vec3 colorHigh{0.95f, 0.95f, 1.00f};  // "color_high": particles at the top of the colour map, RGB 0..1
  bool scenery = true;  // "scenery": the domain's floor and the colliders drawn behind the water
  // "color_by": what colours the particles in `particles` mode: "speed" (m/s, from 0), "density"
  // (kg/m^3, from the rest density), "id" (emission order) or "material" (each MPM material its own colour)
  std::string colorBy = "speed";
  // "ellipsoids": `ssfr` draws each particle as its Yu–Turk ellipsoid, stretched along the water's
  // surface (flat water reads flat, thin sheets stay thin); false: spheres
  bool ellipsoids = true;
};
// a scene file: the physics, and the "output" and "render" sections
struct SceneDesc : SimulationDesc {
  OutputDesc output;  // "output"
  RenderDesc render;  // "render"
};

}  // namespace eddy
