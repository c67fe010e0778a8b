// sceneToJson: every key of the schema in scene_keys.h, defaults filled in.
#include <eddy/scene_io.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "io/scene_keys.h"

namespace eddy {
namespace {

using Json = nlohmann::ordered_json;
using namespace scene_keys;

// the shortest decimal that reads back as the same float, so files show 0.1 rather than 0.100000001
Json realToJson(Real v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  *res.ptr = '\0';
  return Json(std::strtod(buf, nullptr));
}

Json vecToJson(Vec3 v) { return Json::array({realToJson(v.x), realToJson(v.y), realToJson(v.z)}); }

template <class S>
void writeFields(Json& out, const S& s, std::span<const Field<S>> fields) {
  for (const Field<S>& f : fields) {
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(s.*member)>;
          const T& v = s.*member;
          if constexpr (std::is_same_v<T, Real>) {
            out[std::string(f.key)] = realToJson(v);
          } else if constexpr (std::is_same_v<T, Vec3>) {
            out[std::string(f.key)] = vecToJson(v);
          } else if constexpr (std::is_same_v<T, Quat>) {
            out[std::string(f.key)] =
                Json::array({realToJson(v.w), realToJson(v.x), realToJson(v.y), realToJson(v.z)});
          } else {
            out[std::string(f.key)] = v;
          }
        },
        f.member);
  }
}

template <class S, std::size_t N>
Json section(const S& s, const std::array<Field<S>, N>& fields) {
  Json out = Json::object();
  writeFields(out, s, std::span<const Field<S>>(fields));
  return out;
}

Json shapeToJson(const ShapeDesc& shape) {
  Json out = section(shape, kShapeFields);
  if (shape.fitInto.set()) out["fit_into"] = section(shape.fitInto, kFitBoxFields);
  return out;
}

Json colliderToJson(const ColliderDesc& c) {
  std::span<const Field<ColliderDesc>> fields(kColliderFields);
  Json out = Json::object();
  writeFields(out, c, fields.first(1));  // name
  out["shape"] = shapeToJson(c.shape);
  writeFields(out, c, fields.subspan(1));
  Json keyframes = Json::array();
  for (const KeyframeDesc& k : c.keyframes) keyframes.push_back(section(k, kKeyframeFields));
  out["keyframes"] = std::move(keyframes);
  return out;
}

Json emitterToJson(const EmitterDesc& e) {
  std::span<const Field<EmitterDesc>> fields(kEmitterFields);
  Json out = Json::object();
  writeFields(out, e, fields.first(1));  // type
  out["shape"] = shapeToJson(e.shape);
  writeFields(out, e, fields.subspan(1));
  out["material"] = section(e.material, kMaterialFields);
  return out;
}

// like dump(2), but arrays of numbers stay on one line: "min": [0.0, 0.0, 0.0]
void print(std::string& out, const Json& j, int indent) {
  // names built by code may hold invalid utf-8: replace it rather than throw
  auto scalar = [](const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); };
  std::string pad(indent + 2, ' ');
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& item : j.items()) {
      out += first ? "" : ",\n";
      first = false;
      out += pad + scalar(Json(item.key())) + ": ";
      print(out, item.value(), indent + 2);
    }
    // appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "\n" + std::string&& once inlined
    out += '\n';
    out.append(std::size_t(indent), ' ');
    out += '}';
  } else if (j.is_array() && !j.empty()) {
    bool flat = std::none_of(j.begin(), j.end(), [](const Json& v) { return v.is_structured(); });
    out += flat ? "[" : "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i > 0) out += flat ? ", " : ",\n";
      if (!flat) out += pad;
      print(out, j[i], indent + 2);
    }
    if (!flat) {
      out += '\n';
      out.append(std::size_t(indent), ' ');
    }
    out += ']';
  } else {
    out += scalar(j);
  }
}

}  // namespace

std::string sceneToJson(const SceneDesc& scene) {
  Json doc = Json::object();
  writeFields(doc, scene, std::span<const Field<SceneDesc>>(kSceneFields));
  doc["pbf"] = section(scene.pbf, kPbfFields);
  doc["wcsph"] = section(scene.wcsph, kWcsphFields);
  doc["dfsph"] = section(scene.dfsph, kDfsphFields);
  // the reader refuses density_diffusion beside a summed density (the term belongs to the continuity
  // equation), so it is not written there; the value left in the struct is unused
  if (scene.wcsph.density == "summation") doc["wcsph"].erase("density_diffusion");
  doc["mpm"] = section(scene.mpm, kMpmFields);
  doc["fluid"] = section(scene.fluid, kFluidFields);
  doc["domain"] = section(scene.domain, kDomainFields);
  doc["time"] = section(scene.time, kTimeFields);
  doc["forces"] = section(scene.forces, kForcesFields);
  Json colliders = Json::array();
  for (const ColliderDesc& c : scene.colliders) colliders.push_back(colliderToJson(c));
  doc["colliders"] = std::move(colliders);
  Json emitters = Json::array();
  for (const EmitterDesc& e : scene.emitters) emitters.push_back(emitterToJson(e));
  doc["emitters"] = std::move(emitters);
  doc["output"] = section(scene.output, kOutputFields);
  doc["surface"] = section(scene.surface, kSurfaceFields);
  doc["render"] = section(scene.render, kRenderFields);
  Json probes = Json::array();
  for (const ProbeDesc& p : scene.probes) probes.push_back(section(p, kProbeFields));
  doc["probes"] = std::move(probes);
  std::string out;
  print(out, doc, 0);
  return out + "\n";
}

}  // namespace eddy
