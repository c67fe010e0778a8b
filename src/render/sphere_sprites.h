// GLSL shared by the renderers that draw particles as spheres (render/particle_renderer.h,
// render/screen_space_fluid_renderer.h): one point sprite per particle that covers the sphere's projected
// silhouette exactly, and the ray cast that finds the sphere under a pixel.
#pragma once

namespace eddy::render {

// Vertex shader. Positions (and optional values) come from storage buffers 0 and 1. On each screen axis the
// two tangents from the eye to the sphere give the silhouette's extent; the point's depth is the sphere's
// nearest point, so a fragment's ray-cast depth only grows from it. Out: the view-space centre and the
// colour map's parameter t.
inline constexpr const char* kSphereSpriteVertex = R"(#version 430 core
layout(std430, binding = 0) readonly buffer Positions { float position[]; };
layout(std430, binding = 1) readonly buffer Values { float value[]; };
uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewport;
uniform float radius;
uniform float valueTop;
uniform int hasValues;
flat out vec3 centre; // view-space sphere centre
flat out float t;     // the colour map's parameter
// the tangent slopes (coordinate / depth) of a circle at (c, depth) seen from the origin
vec2 tangents(float c, float depth) {
  float d2 = depth * depth - radius * radius;
  float root = radius * sqrt(max(c * c + d2, 0.0));
  return vec2(c * depth - root, c * depth + root) / d2;
}
void main() {
  int i = gl_VertexID;
  vec3 x = vec3(position[3 * i], position[3 * i + 1], position[3 * i + 2]);
  centre = (view * vec4(x, 1)).xyz;
  t = hasValues != 0 ? clamp(value[i] / valueTop, 0.0, 1.0) : 0.0;
  float depth = -centre.z;
  if (depth <= radius * 1.001) {  // the eye inside or behind the sphere: not drawn
    gl_Position = vec4(2, 2, 2, 1);
    gl_PointSize = 0.0;
    return;
  }
  vec2 sx = tangents(centre.x, depth) * projection[0][0], sy = tangents(centre.y, depth) * projection[1][1];
  vec4 front = projection * vec4(centre * (1.0 - radius / length(centre)), 1);
  gl_Position = vec4(0.5 * (sx.x + sx.y), 0.5 * (sy.x + sy.y), front.z / front.w, 1);
  gl_PointSize = max((sx.y - sx.x) * viewport.x, (sy.y - sy.x) * viewport.y) * 0.5 + 2.0;
}
)";

// Fragment-shader helper, pasted after the version line and the uniforms projection, viewport and radius:
// the eye ray through this pixel (view space, from the origin) against the sphere at `centre`. Returns
// false outside the silhouette; `chord` is the length of the ray inside the sphere.
inline constexpr const char* kSphereRayCast = R"(
bool castOntoSphere(vec3 centre, out vec3 hit, out vec3 dir, out float chord) {
  vec2 ndc = gl_FragCoord.xy / viewport * 2.0 - 1.0;
  dir = normalize(vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0));
  float b = dot(dir, centre);
  float disc = b * b - dot(centre, centre) + radius * radius;
  if (disc < 0.0) return false;
  hit = dir * (b - sqrt(disc));
  chord = 2.0 * sqrt(disc);
  return true;
}
// the window depth of a view-space point
float windowDepth(vec3 p) {
  vec4 clip = projection * vec4(p, 1);
  return clip.z / clip.w * 0.5 + 0.5;
}
)";

}  // namespace eddy::render
