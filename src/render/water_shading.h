// GLSL shared by the renderers that shade water (render/surface_renderer.h,
// render/screen_space_fluid_renderer.h): a procedural sky, the light that crosses the water (absorbed and
// scattered over its thickness), and Schlick's Fresnel term between the sky's reflection and that light,
// plus the sun's highlight. World space, y up.
//
// Everything is shaded in linear light: the scenery behind the water is decoded from the sRGB it was drawn
// in, and the result encoded again (IEC 61966-2-1), so that an absorption of k per metre takes exp(-k t) of
// the light through t metres, as documented, and not exp(-2.2 k t) as it would acting on encoded values.
//
// References: C. Schlick, "An inexpensive BRDF model for physically-based rendering", Computer Graphics
// Forum 13(3), 1994 (F = F0 + (1 - F0)(1 - cos theta)^5, F0 = 0.02 for water). The light through a
// homogeneous medium with single scattering of a constant ambient light: L = L_behind exp(-s t) +
// (b / s) L_ambient (1 - exp(-s t)), s = a + b the extinction, a the absorption, b the scattering
// (S. Premoze and M. Ashikhmin, "Rendering natural waters", Computer Graphics Forum 20(4), 2001, eq. 5).
#pragma once

namespace eddy::render {

// the grey scattering coefficient of the water, 1/m: the water's own colour fills in as the light from
// behind is taken away, so that the floor does not show at full contrast through half a metre of water
inline constexpr float kWaterScattering = 4.0f;

// sRGB decoding and encoding, pasted into the shaders that need it alone
inline constexpr const char* kSrgb = R"(
vec3 toLinear(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}
vec3 toSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}
)";

// pasted after a shader's version line and kSrgb; render/environment_map.h sets `environment` and
// `hasEnvironment`, the renderer `scattering` (kWaterScattering) and `fresnelF0`
inline constexpr const char* kWaterShading = R"(
uniform sampler2D environment;  // equirectangular: longitude across, the zenith at coordinate 0; sRGB
uniform int hasEnvironment;
uniform float scattering;  // 1/m, grey
uniform float fresnelF0;   // the reflectance looking straight in: 0.02 for water
// in linear light: the environment image where there is one (its texture decodes the sRGB); else a blue
// sky paler towards the horizon, and below it a light ground, so that drops whose normals point down do not
// flash dark
vec3 sky(vec3 d) {
  if (hasEnvironment != 0) {
    vec2 uv = vec2(atan(d.z, d.x) / 6.2831853 + 0.5, acos(clamp(d.y, -1.0, 1.0)) / 3.1415927);
    return texture(environment, uv).rgb;
  }
  float up = d.y;
  vec3 horizon = toLinear(vec3(0.80, 0.87, 0.95)), zenith = toLinear(vec3(0.27, 0.50, 0.85));
  vec3 ground = toLinear(vec3(0.62, 0.61, 0.59));
  return up > 0.0 ? mix(horizon, zenith, pow(up, 0.4)) : mix(horizon, ground, min(-up * 3.0, 1.0));
}
// what comes through `thickness` metres of water from `behind` (linear): absorbed and scattered out, and
// the sky's light scattered in
vec3 throughWater(vec3 behind, float thickness, vec3 absorption) {
  vec3 extinction = absorption + vec3(scattering);
  vec3 kept = exp(-extinction * thickness);
  // the light scattered towards the eye: a share of the sky's, which lights the water from above
  vec3 ambient = 0.35 * sky(vec3(0.0, 1.0, 0.0)) + 0.1 * sky(normalize(vec3(1.0, 0.3, 0.0)));
  return behind * kept + scattering / max(extinction, vec3(1e-6)) * ambient * (1.0 - kept);
}
// n: the surface normal, v: towards the eye (both unit), transmitted: what comes through the water
// (linear); linear light out
vec3 shadeWater(vec3 n, vec3 v, vec3 transmitted, vec3 sun) {
  if (dot(n, v) < 0.0) n = -n;  // the inside of a surface seen through a hole
  float cosTheta = clamp(dot(n, v), 0.0, 1.0);
  float fresnel = fresnelF0 + (1.0 - fresnelF0) * pow(1.0 - cosTheta, 5.0);
  vec3 h = normalize(normalize(sun) + v);
  float specular = pow(max(dot(n, h), 0.0), 300.0) * 2.0;
  return mix(transmitted, sky(reflect(-v, n)), fresnel) + vec3(specular);
}
)";

}  // namespace eddy::render
