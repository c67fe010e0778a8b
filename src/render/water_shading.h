// GLSL shared by the renderers that shade water (render/surface_renderer.h,
// render/screen_space_fluid_renderer.h): a procedural sky, and Schlick's Fresnel term between the sky's
// reflection and the light that comes through the water, plus the sun's highlight. World space, y up.
//
// Reference: C. Schlick, "An inexpensive BRDF model for physically-based rendering", Computer Graphics
// Forum 13(3), 1994 (F = F0 + (1 - F0)(1 - cos theta)^5, F0 = 0.02 for water).
#pragma once

namespace eddy::render {

// pasted after a fragment shader's version line; render/environment_map.h sets its two uniforms
inline constexpr const char* kWaterShading = R"(
uniform sampler2D environment;  // equirectangular: longitude across, the zenith at coordinate 0
uniform int hasEnvironment;
// the environment image where there is one; else a sky brighter at the horizon than at the zenith, and
// below it a light grey floor, so that drops whose normals point down do not flash dark against the light
// background
vec3 sky(vec3 d) {
  if (hasEnvironment != 0) {
    vec2 uv = vec2(atan(d.z, d.x) / 6.2831853 + 0.5, acos(clamp(d.y, -1.0, 1.0)) / 3.1415927);
    return texture(environment, uv).rgb;
  }
  float up = d.y;
  return up > 0.0 ? mix(vec3(0.85, 0.90, 0.95), vec3(0.35, 0.55, 0.85), up)
                  : mix(vec3(0.85, 0.90, 0.95), vec3(0.62, 0.61, 0.59), min(-up * 3.0, 1.0));
}
// n: the surface normal, v: towards the eye (both unit), transmitted: what comes through the water
vec3 shadeWater(vec3 n, vec3 v, vec3 transmitted, vec3 sun) {
  if (dot(n, v) < 0.0) n = -n;  // the inside of a surface seen through a hole
  float cosTheta = clamp(dot(n, v), 0.0, 1.0);
  float fresnel = 0.02 + 0.98 * pow(1.0 - cosTheta, 5.0);
  vec3 h = normalize(normalize(sun) + v);
  float specular = pow(max(dot(n, h), 0.0), 300.0) * 2.0;
  return mix(transmitted, sky(reflect(-v, n)), fresnel) + vec3(specular);
}
)";

}  // namespace eddy::render
