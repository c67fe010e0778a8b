// loadScene / parseScene: JSON text -> document -> "--set" overrides -> validated SceneDesc.
// Every message reads "<source>: <json pointer>: <what is wrong and what is allowed>".
#include <eddy/error.h>
#include <eddy/scene_io.h>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "colliders/body_locks.h"
#include "io/scene_json.h"
#include "io/scene_keys.h"
#include "io/scene_messages.h"
#include "io/scene_probes.h"

namespace eddy {
namespace {

using Json = nlohmann::ordered_json;
using namespace scene_keys;
using namespace scene_messages;

constexpr const char* kDefaultSource = "<default scene>";

// ---------------------------------------------------------------- the validating reader

class Reader final : public scene_probes::ReaderAccess {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const std::string& source() const { return source_; }

  // remembers which pointers came from "--set", so messages can say so
  void noteOverride(std::string pointer, std::string text) {
    overrides_.emplace_back(std::move(pointer), std::move(text));
  }

  [[noreturn]] void fail(const std::string& ptr, const std::string& what) const override {
    throw InputError(source_ + ": " + ptr + ": " + what + overrideNote(ptr));
  }

  // rejects keys that are not in allowed, listing the allowed ones
  void checkKeys(const Json& obj, const std::string& ptr, std::span<const std::string_view> allowed) const {
    for (const auto& item : obj.items()) {
      const std::string& key = item.key();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string keyPtr = pointerChild(ptr, key);
      std::string msg = source_ + ": unknown key '" + keyPtr + "'";
      std::string_view best;
      std::size_t bestDist = std::numeric_limits<std::size_t>::max();
      for (std::string_view a : allowed) {
        std::size_t d = editDistance(key, a);
        if (d < bestDist) bestDist = d, best = a;
      }
      msg += "; allowed keys: " + joinList(allowed);
      if (bestDist <= std::max<std::size_t>(1, key.size() / 3))
        msg += "; did you mean '" + std::string(best) + "'?";
      msg += overrideNote(keyPtr);
      throw InputError(msg);
    }
  }

  const Json& expectObject(const Json& v, const std::string& ptr, const char* what = "an object") const {
    if (!v.is_object()) fail(ptr, std::string("expected ") + what + ", got " + describe(v));
    return v;
  }

  double readNumber(const Json& v, const std::string& ptr, const Range& range) const {
    if (!v.is_number()) fail(ptr, "expected a number, got " + describe(v));
    double d = v.get<double>();
    // the engine stores single precision
    if (!std::isfinite(d) || std::fabs(d) > double(FLT_MAX)) {
      fail(ptr, "must be a finite single-precision number (magnitude <= 3.4e38), got " + v.dump());
    }
    // checked as stored: 1e-50 passes "> 0" in double but is 0 in single precision (found by fuzzing)
    const double stored = double(Real(d));
    if (!inRange(stored, range)) fail(ptr, outOfRange(range, v, stored));
    return stored;
  }

  long long readInteger(const Json& v, const std::string& ptr, Range range, double typeLo,
                        double typeHi) const {
    bool integral = v.is_number_integer();
    // 1e5 or 6.0 in a file are integers in value, so accept them
    if (v.is_number_float()) {
      double d = v.get<double>();
      integral = std::isfinite(d) && std::floor(d) == d;
    }
    if (!integral) fail(ptr, "expected an integer, got " + describe(v));
    double d = v.get<double>();
    if (typeLo > range.lo) range.lo = typeLo, range.loOpen = false;
    if (typeHi < range.hi) range.hi = typeHi, range.hiOpen = false;
    if (!inRange(d, range)) fail(ptr, "must be an integer " + rangeText(range) + ", got " + v.dump());
    if (v.is_number_unsigned()) return static_cast<long long>(v.get<unsigned long long>());
    if (v.is_number_integer()) return v.get<long long>();
    return static_cast<long long>(d);
  }

  // range: what each component may be
  Vec3 readVec3(const Json& v, const std::string& ptr, VecRule rule, Range range = anyValue()) const {
    if (!v.is_array() || v.size() != 3)
      fail(ptr, "expected an array of 3 numbers [x, y, z], got " + describe(v));
    Real c[3];
    for (std::size_t i = 0; i < 3; ++i) c[i] = Real(readNumber(v[i], pointerChild(ptr, i), range));
    Vec3 out{c[0], c[1], c[2]};
    if (rule == VecRule::NonZero && out.x == 0 && out.y == 0 && out.z == 0) {
      fail(ptr, "must not be the zero vector, got " + formatVec(out));
    }
    if (rule == VecRule::Positive && !(out.x > 0 && out.y > 0 && out.z > 0)) {
      fail(ptr, "every component must be > 0, got " + formatVec(out));
    }
    return out;
  }

  // a rotation as a quaternion [w, x, y, z], normalised (any non-zero length is taken as meant)
  Quat readQuat(const Json& v, const std::string& ptr) const {
    if (!v.is_array() || v.size() != 4)
      fail(ptr, "expected an array of 4 numbers [w, x, y, z], got " + describe(v));
    double c[4], n2 = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      c[i] = readNumber(v[i], pointerChild(ptr, i), anyValue());
      n2 += c[i] * c[i];
    }
    if (!(n2 > 1e-12)) fail(ptr, "must be a non-zero quaternion [w, x, y, z], got " + v.dump());
    double n = std::sqrt(n2);
    return Quat{Real(c[0] / n), Real(c[1] / n), Real(c[2] / n), Real(c[3] / n)};
  }

  std::string readString(const Json& v, const std::string& ptr,
                         std::span<const std::string_view> choices) const {
    if (!v.is_string()) {
      std::string expected = choices.empty() ? "a string" : "one of the strings " + joinList(choices);
      fail(ptr, "expected " + expected + ", got " + describe(v));
    }
    std::string s = v.get<std::string>();
    if (!choices.empty() && std::find(choices.begin(), choices.end(), s) == choices.end()) {
      fail(ptr, "unknown value '" + s + "'; allowed values: " + joinList(choices));
    }
    return s;
  }

  bool readBool(const Json& v, const std::string& ptr) const {
    if (!v.is_boolean()) fail(ptr, "expected true or false, got " + describe(v));
    return v.get<bool>();
  }

  // reads every key of fields that obj holds into out
  template <class S>
  void readFields(const Json& obj, const std::string& ptr, S& out, std::span<const Field<S>> fields) const {
    for (const Field<S>& f : fields) {
      auto it = obj.find(std::string(f.key));
      if (it == obj.end()) continue;
      std::string keyPtr = pointerChild(ptr, f.key);
      const Json& v = *it;
      std::visit(
          [&](auto member) {
            using T = std::remove_cvref_t<decltype(out.*member)>;
            if constexpr (std::is_same_v<T, Real>) {
              out.*member = Real(readNumber(v, keyPtr, f.range));
            } else if constexpr (std::is_same_v<T, int>) {
              out.*member = int(readInteger(v, keyPtr, f.range, std::numeric_limits<int>::min(),
                                            std::numeric_limits<int>::max()));
            } else if constexpr (std::is_same_v<T, unsigned>) {
              out.*member =
                  unsigned(readInteger(v, keyPtr, f.range, 0, std::numeric_limits<unsigned>::max()));
            } else if constexpr (std::is_same_v<T, long long>) {
              out.*member = readInteger(v, keyPtr, f.range, -9.0e15, 9.0e15);
            } else if constexpr (std::is_same_v<T, bool>) {
              out.*member = readBool(v, keyPtr);
            } else if constexpr (std::is_same_v<T, std::string>) {
              out.*member = readString(v, keyPtr, f.choices);
            } else if constexpr (std::is_same_v<T, Quat>) {
              out.*member = readQuat(v, keyPtr);
            } else {
              static_assert(std::is_same_v<T, Vec3>);
              out.*member = readVec3(v, keyPtr, f.vec, f.range);
            }
          },
          f.member);
    }
  }

  // a section object whose keys are exactly fields (plus extra and trailing, read by the caller)
  template <class S, std::size_t N>
  void readObject(const Json& v, const std::string& ptr, S& out, const std::array<Field<S>, N>& fields,
                  std::span<const std::string_view> extra = {},
                  std::span<const std::string_view> trailing = {}) const {
    expectObject(v, ptr);
    std::vector<std::string_view> allowed;
    for (std::size_t i = 0; i < N; ++i) {
      allowed.push_back(fields[i].key);
      // the nested "shape" object sits right after the first key, as in the writer
      if (i == 0) allowed.insert(allowed.end(), extra.begin(), extra.end());
    }
    // nested objects the writer puts last ("material" of an emitter)
    allowed.insert(allowed.end(), trailing.begin(), trailing.end());
    checkKeys(v, ptr, allowed);
    readFields(v, ptr, out, std::span<const Field<S>>(fields));
  }

  template <class S, std::size_t N>
  void readSection(const Json& doc, std::string_view key, S& out,
                   const std::array<Field<S>, N>& fields) const {
    auto it = doc.find(std::string(key));
    if (it != doc.end()) readObject(*it, pointerChild("", key), out, fields);
  }

  void readProbeObject(const Json& v, const std::string& ptr, ProbeDesc& out) const override {
    readObject(v, ptr, out, kProbeFields);
  }

  ShapeDesc readShape(const Json& v, const std::string& ptr) const {
    static constexpr std::array<std::string_view, 1> kFit{"fit_into"};
    ShapeDesc shape;
    readObject(v, ptr, shape, kShapeFields, {}, kFit);
    if (auto it = v.find("fit_into"); it != v.end()) {
      std::string fitPtr = pointerChild(ptr, "fit_into");
      readObject(*it, fitPtr, shape.fitInto, kFitBoxFields);
      const Vec3 lo = shape.fitInto.min, hi = shape.fitInto.max;
      if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
        fail(fitPtr, "max must be greater than min in every component; got min " + formatVec(lo) + ", max " +
                         formatVec(hi));
    }
    return shape;
  }

  // a collider's "keyframes": none (an empty list) or at least 2, each with a time and a translation, the
  // times strictly increasing
  std::vector<KeyframeDesc> readKeyframes(const Json& v, const std::string& ptr) const {
    if (!v.is_array())
      fail(ptr,
           "expected an array of keyframe objects {\"time\": s, \"translation\": [x, y, z], "
           "\"rotation\": [x, y, z]}, got " +
               describe(v));
    if (v.size() == 1)
      fail(ptr, "a keyframed collider needs at least 2 keyframes (the poses it moves between), got 1");
    std::vector<KeyframeDesc> out;
    for (std::size_t k = 0; k < v.size(); ++k) {
      std::string at = pointerChild(ptr, k);
      KeyframeDesc f;
      readObject(v[k], at, f, kKeyframeFields);
      for (const char* key : {"time", "translation"})
        if (!v[k].contains(key))
          fail(pointerChild(at, key), "every keyframe needs \"" + std::string(key) + "\"");
      if (k > 0) {
        const KeyframeDesc& prev = out.back();
        if (!(f.time > prev.time))
          fail(pointerChild(at, "time"), "keyframe times must increase strictly: must be > " +
                                             formatReal(prev.time) + " (the time of keyframe " +
                                             std::to_string(k - 1) + "), got " + formatReal(f.time));
        // the motion between the two must fit single precision (a turn is at most pi)
        const double span = double(f.time) - double(prev.time);
        const Vec3 d = f.translation - prev.translation;
        const double dist = std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z);
        if (!(dist / span <= double(FLT_MAX) && 3.2 / span <= double(FLT_MAX)))
          fail(pointerChild(at, "time"), "is too close to the time of keyframe " + std::to_string(k - 1) +
                                             " (" + formatReal(prev.time) +
                                             "): the motion between them is too fast for single precision");
      }
      out.push_back(f);
    }
    return out;
  }

  template <class D, std::size_t N>
  D readWithShape(const Json& v, const std::string& ptr, const std::array<Field<D>, N>& fields) const {
    static constexpr std::array<std::string_view, 1> kShape{"shape"};
    static constexpr std::array<std::string_view, 1> kMaterial{"material"};
    static constexpr std::array<std::string_view, 1> kKeyframes{"keyframes"};
    constexpr bool hasMaterial = std::is_same_v<D, EmitterDesc>;
    D out;
    readObject(v, ptr, out, fields, kShape,
               hasMaterial ? std::span<const std::string_view>(kMaterial)
                           : std::span<const std::string_view>(kKeyframes));
    auto it = v.find("shape");
    if (it != v.end()) out.shape = readShape(*it, pointerChild(ptr, "shape"));
    if constexpr (hasMaterial) {
      auto m = v.find("material");
      if (m != v.end()) readObject(*m, pointerChild(ptr, "material"), out.material, kMaterialFields);
      // granular materials start jittered unless the scene says how (0 included)
      const std::string& type = out.material.type;
      if (out.type == "volume" && (type == "sand" || type == "snow") && !v.contains("jitter"))
        out.jitter = EmitterDesc::kGranularJitter;
    } else {
      auto k = v.find("keyframes");
      if (k != v.end()) out.keyframes = readKeyframes(*k, pointerChild(ptr, "keyframes"));
    }
    return out;
  }

  template <class D, std::size_t N>
  std::vector<D> readList(const Json& doc, const char* key, const char* what,
                          const std::array<Field<D>, N>& fields) const {
    std::vector<D> out;
    auto it = doc.find(key);
    if (it == doc.end()) return out;
    std::string ptr = pointerChild("", key);
    if (!it->is_array())
      fail(ptr, std::string("expected an array of ") + what + " objects, got " + describe(*it));
    for (std::size_t i = 0; i < it->size(); ++i) {
      out.push_back(readWithShape((*it)[i], pointerChild(ptr, i), fields));
    }
    return out;
  }

  // one orientation per shape; the mesh keys belong to a mesh shape, and a mesh has no centre; a shell
  // (a mesh with a thickness) has no inside, so nothing fills it
  void checkMeshKeys(const ShapeDesc& shape, const std::string& ptr, const char* needsInside) const {
    ShapeDesc plain;
    auto moved = [](Vec3 v) { return v.x != 0 || v.y != 0 || v.z != 0; };
    Quat q = shape.quaternion;
    if (moved(shape.rotation) && !(q.w == 1 && q.x == 0 && q.y == 0 && q.z == 0))
      fail(pointerChild(ptr, "quaternion"), "give the orientation once: \"rotation\" or \"quaternion\"");
    if (shape.type == "mesh") {
      if (shape.file.empty()) fail(pointerChild(ptr, "file"), "a mesh shape needs a file (.obj or .ply)");
      if (moved(shape.center))
        fail(pointerChild(ptr, "center"),
             "a mesh is placed by \"translation\" (where its origin goes), not by "
             "\"center\"");
      if (shape.fitInto.set() && (shape.scale != plain.scale || moved(shape.translation)))
        fail(pointerChild(ptr, "fit_into"),
             std::string("\"fit_into\" chooses the scale and translation; remove \"") +
                 (shape.scale != plain.scale ? "scale" : "translation") + "\"");
      if (needsInside && shape.thickness > 0)
        fail(pointerChild(ptr, "thickness"),
             std::string("a shell (a mesh with a thickness) has no inside, and ") + needsInside +
                 "; use a closed mesh without \"thickness\"");
      return;
    }
    const char* key = !shape.file.empty()                          ? "file"
                      : shape.scale != plain.scale                 ? "scale"
                      : moved(shape.translation)                   ? "translation"
                      : shape.sdfResolution != plain.sdfResolution ? "sdf_resolution"
                      : shape.thickness != plain.thickness         ? "thickness"
                      : shape.fitInto.set()                        ? "fit_into"
                                                                   : nullptr;
    if (key)
      fail(pointerChild(ptr, key),
           std::string("only a mesh shape reads \"") + key + "\" (this shape is a " + shape.type + ")");
  }

  SceneDesc readScene(const Json& doc) const {
    if (!doc.is_object()) {
      throw InputError(source_ + ": the scene must be a JSON object { ... }, got " + describe(doc));
    }
    std::vector<std::string_view> allowed;
    for (const auto& f : kSceneFields) allowed.push_back(f.key);
    allowed.insert(allowed.end(), kSceneSections.begin(), kSceneSections.end());
    checkKeys(doc, "", allowed);

    SceneDesc s;
    readFields(doc, "", s, std::span<const Field<SceneDesc>>(kSceneFields));
    // free text for people; the engine ignores it
    if (auto it = doc.find("description"); it != doc.end()) readString(*it, "/description", {});
    if (auto pbf = doc.find("pbf"); pbf != doc.end() && pbf->is_object() && pbf->contains("sor")) {
      fail("/pbf/sor",
           "was split in two: 'over_relaxation' (omega in [1, 2), scales every correction) and "
           "'constraint_averaging' (the old 'sor': divides the correction by max(a n, 1), which only damps)");
    }
    readSection(doc, "pbf", s.pbf, kPbfFields);
    readSection(doc, "wcsph", s.wcsph, kWcsphFields);
    // the default 0.1 stays in the struct; only a value given in the file (or by --set) is refused
    if (s.wcsph.density == "summation" && doc.at("wcsph").contains("density_diffusion"))
      fail("/wcsph/density_diffusion",
           "applies to wcsph.density \"continuity\" only (the delta-SPH term diffuses the continuity "
           "equation's density; a summed density has none); leave it out with \"summation\"");
    readSection(doc, "dfsph", s.dfsph, kDfsphFields);
    if (auto dfsph = doc.find("dfsph");
        s.dfsph.pressureSolver == "jacobi" && (dfsph == doc.end() || !dfsph->contains("max_density_error")))
      s.dfsph.maxDensityError = DfsphSettings::kJacobiDensityError;
    if (s.dfsph.maxIterations < s.dfsph.minIterations)
      fail("/dfsph/max_iterations",
           "must be at least dfsph.min_iterations (" + std::to_string(s.dfsph.minIterations) + ")");
    readSection(doc, "mpm", s.mpm, kMpmFields);
    readSection(doc, "fluid", s.fluid, kFluidFields);
    readSection(doc, "domain", s.domain, kDomainFields);
    readSection(doc, "time", s.time, kTimeFields);
    readSection(doc, "forces", s.forces, kForcesFields);
    s.colliders = readList(doc, "colliders", "collider", kColliderFields);
    s.emitters = readList(doc, "emitters", "emitter", kEmitterFields);
    readSection(doc, "output", s.output, kOutputFields);
    // a "surface" section turns surfaces on unless it says otherwise
    if (auto it = doc.find("surface"); it != doc.end() && it->is_object() && !it->contains("enabled"))
      s.surface.enabled = true;
    readSection(doc, "surface", s.surface, kSurfaceFields);
    // a camera or a target placed by hand turns the framing off unless "frame" says otherwise
    if (auto it = doc.find("render"); it != doc.end() && it->is_object() && !it->contains("frame") &&
                                      (it->contains("camera") || it->contains("target")))
      s.render.frame = false;
    readSection(doc, "render", s.render, kRenderFields);
    s.probes = scene_probes::readProbes(doc, *this);
    checkConsistency(s);
    return s;
  }

 private:
  // rules that relate several keys
  void checkConsistency(const SceneDesc& s) const {
    if (s.surface.cell > s.surface.radius)
      fail("/surface/cell", "must not exceed /surface/radius (" + std::to_string(s.surface.radius) +
                                " spacings): a cell wider than the kernel steps over it; got " +
                                std::to_string(s.surface.cell));
    const RenderDesc& r = s.render;
    if (!r.frame && r.camera.x == r.target.x && r.camera.y == r.target.y && r.camera.z == r.target.z)
      fail("/render/camera",
           "must differ from /render/target (the camera looks from one to the other); got " +
               formatVec(r.camera) + " for both");
    const Vec3 lo = s.domain.min, hi = s.domain.max;
    if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z)) {
      fail("/domain", "min must be less than max in every component; got min " + formatVec(lo) + ", max " +
                          formatVec(hi));
    }
    Real smallest = std::min({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    if (s.fluid.spacing > smallest) {
      fail("/fluid/spacing", "must not exceed the smallest domain extent (" + formatReal(smallest) +
                                 " m), got " + formatReal(s.fluid.spacing));
    }
    if (s.time.maxSubsteps < s.time.substeps) {
      fail("/time/max_substeps", "must be >= substeps (" + std::to_string(s.time.substeps) + "), got " +
                                     std::to_string(s.time.maxSubsteps));
    }

    checkSolverKeys(s);

    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < s.colliders.size(); ++i) {
      const ColliderDesc& c = s.colliders[i];
      std::string ptr = pointerChild("/colliders", i);
      checkMeshKeys(c.shape, pointerChild(ptr, "shape"),
                    c.container ? "a container holds the fluid inside" : nullptr);
      if (!c.keyframes.empty()) checkKeyframedCollider(c, ptr);
      if (c.container && c.shape.type == "plane") {
        fail(pointerChild(ptr, "container"),
             "a plane cannot be a container (its normal already points into the fluid); use a box, sphere, "
             "capsule or cylinder");
      }
      if (c.density > 0) checkRigidBody(c, ptr);
      if (c.density <= 0 && !c.locks.empty())
        fail(pointerChild(ptr, "locks"),
             "only a rigid body (a collider with a density) has locks; give it a "
             "density or leave the locks out");
      const bool hinged = !(c.hingeAxis.x == 0 && c.hingeAxis.y == 0 && c.hingeAxis.z == 0);
      if (c.density <= 0 && hinged)
        fail(pointerChild(ptr, "hinge_axis"),
             "only a rigid body (a collider with a density) turns on a hinge; give it a density or leave "
             "the hinge out");
      if (hinged && !c.locks.empty())
        fail(pointerChild(ptr, "locks"),
             "a hinge already holds every motion but the turn about its axis; leave the locks out");
      const bool pointSet = !(c.hingePoint.x == 0 && c.hingePoint.y == 0 && c.hingePoint.z == 0);
      if (pointSet && !hinged)
        fail(pointerChild(ptr, "hinge_point"),
             "is read with hinge_axis, which is not given; give the hinge's axis or leave the point out");
      if (hinged && !(c.linearVelocity.x == 0 && c.linearVelocity.y == 0 && c.linearVelocity.z == 0))
        fail(pointerChild(ptr, "linear_velocity"),
             "a hinged body only turns about its axis; leave out linear_velocity and give angular_velocity "
             "along the axis");
      if (hinged && length(cross(c.angularVelocity, c.hingeAxis)) >
                        1e-6f * length(c.angularVelocity) * length(c.hingeAxis))
        fail(pointerChild(ptr, "angular_velocity"), "a hinged body only turns about its axis " +
                                                        formatVec(c.hingeAxis) +
                                                        "; give an angular velocity along it");
      if (c.name.empty()) continue;
      if (std::find(names.begin(), names.end(), c.name) != names.end()) {
        fail(pointerChild(ptr, "name"), "duplicate collider name '" + c.name + "'; names must be unique");
      }
      names.push_back(c.name);
    }
    scene_probes::checkProbes(s, *this);

    if (s.emitters.empty()) fail("/emitters", "the scene has no fluid; add at least one emitter");
    for (std::size_t i = 0; i < s.emitters.size(); ++i) {
      const EmitterDesc& e = s.emitters[i];
      std::string ptr = pointerChild("/emitters", i);
      checkMeshKeys(e.shape, pointerChild(ptr, "shape"),
                    e.type == "volume" ? "a volume emitter fills the inside" : nullptr);
      if (!e.collider.empty() && std::find(names.begin(), names.end(), e.collider) == names.end()) {
        std::string known =
            names.empty() ? "the scene has no named colliders" : "named colliders: " + joinList(names);
        fail(pointerChild(ptr, "collider"), "no collider is named '" + e.collider + "'; " + known);
      }
      // a half-space has no bounded inside to fill with particles
      if (e.type == "volume" && !e.collider.empty()) {
        auto target = std::find_if(s.colliders.begin(), s.colliders.end(),
                                   [&](const ColliderDesc& c) { return c.name == e.collider; });
        if (target->shape.type == "plane") {
          fail(pointerChild(ptr, "collider"),
               "collider '" + e.collider +
                   "' is a plane, which has no inside to fill; name a box, sphere, "
                   "capsule or cylinder collider");
        }
        if (target->shape.type == "mesh" && target->shape.thickness > 0) {
          fail(pointerChild(ptr, "collider"),
               "collider '" + e.collider +
                   "' is a shell (a mesh with a thickness), which has no inside to fill; name a closed "
                   "mesh or an analytic shape");
        }
      } else if (e.type == "volume" && e.shape.type == "plane") {
        fail(pointerChild(pointerChild(ptr, "shape"), "type"),
             "a volume emitter cannot fill a plane; use box, sphere, capsule or cylinder");
      }
      // the particle solvers simulate water; solids and granular materials need the grid
      if (s.solver != "mpm" && e.material.type != "water") {
        fail(pointerChild(pointerChild(ptr, "material"), "type"),
             "material '" + e.material.type + "' needs solver \"mpm\"; the " + s.solver +
                 " solver simulates water only (allowed with " + s.solver + ": water)");
      }
      if (e.stop < e.start) {
        fail(pointerChild(ptr, "stop"),
             "must be >= start (" + formatReal(e.start) + "), got " + formatReal(e.stop));
      }
      if (e.type == "nozzle" && e.pressure != "zero")
        fail(pointerChild(ptr, "pressure"),
             "a nozzle's water starts as it leaves the nozzle; \"pressure\" is a volume emitter's, leave it "
             "out");
      if (e.type == "nozzle") {
        Vec3 p = e.position;
        if (!(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z)) {
          fail(pointerChild(ptr, "position"), "the nozzle must lie inside the domain " + formatVec(lo) +
                                                  " .. " + formatVec(hi) + ", got " + formatVec(p));
        }
      }
    }
  }

  // a keyframed collider takes its pose and motion from the keyframes alone
  void checkKeyframedCollider(const ColliderDesc& c, const std::string& ptr) const {
    auto set = [](Vec3 v) { return v.x != 0 || v.y != 0 || v.z != 0; };
    auto refuse = [&](const std::string& key, const std::string& instead) {
      fail(key, "a collider with \"keyframes\" moves and is placed by its keyframes alone; " + instead);
    };
    if (set(c.linearVelocity))
      refuse(pointerChild(ptr, "linear_velocity"),
             "leave out linear_velocity (the keyframes' translations give the motion)");
    if (set(c.angularVelocity))
      refuse(pointerChild(ptr, "angular_velocity"),
             "leave out angular_velocity (the keyframes' rotations give the spin)");
    std::string shape = pointerChild(ptr, "shape");
    if (set(c.shape.center))
      refuse(pointerChild(shape, "center"),
             "leave out the shape's center and give each keyframe's translation");
    if (set(c.shape.translation))
      refuse(pointerChild(shape, "translation"),
             "leave out the mesh's translation and give each keyframe's translation");
    if (set(c.shape.rotation))
      refuse(pointerChild(shape, "rotation"),
             "leave out the shape's rotation and give each keyframe's rotation");
    Quat q = c.shape.quaternion;
    if (!(q.w == 1 && q.x == 0 && q.y == 0 && q.z == 0))
      refuse(pointerChild(shape, "quaternion"),
             "leave out the shape's quaternion and give each keyframe's rotation");
    if (c.shape.fitInto.set())
      refuse(pointerChild(shape, "fit_into"),
             "leave out fit_into (it chooses the translation) and scale the mesh with \"scale\"");
  }

  // a collider with a density is a rigid body: a closed shape of its own whose mass and inertia follow
  // from its size, moved by the fluid and gravity alone
  void checkRigidBody(const ColliderDesc& c, const std::string& ptr) const {
    const std::string key = pointerChild(ptr, "density");
    if (c.shape.type == "plane")
      fail(key,
           "a rigid body is a box, sphere, capsule, cylinder or closed mesh, not a plane; use one of "
           "those, or density 0 for a collider that moves as the scene prescribes");
    if (c.shape.type == "mesh" && c.shape.thickness > 0)
      fail(pointerChild(pointerChild(ptr, "shape"), "thickness"),
           "a rigid body's mesh is solid, its mass that of its closed volume, not a thin shell; remove the "
           "thickness (the mesh must then be closed) or the density");
    if (c.container) fail(key, "a container cannot be a rigid body; remove \"container\" or the density");
    if (!c.keyframes.empty())
      fail(key, "a rigid body is moved by the fluid and gravity, not by keyframes; remove one of them");
    checkLocks(c, ptr);
  }

  void checkLocks(const ColliderDesc& c, const std::string& ptr) const {
    BodyLocks locks;
    std::string bad;
    if (!parseBodyLocks(c.locks, locks, bad))
      fail(pointerChild(ptr, "locks"), bad +
                                           "; the locks are \"x\" \"y\" "
                                           "\"z\" (along a world axis) and \"rx\" \"ry\" \"rz\" (about one), "
                                           "separated by spaces or commas, got \"" +
                                           c.locks + "\"");
  }

  // Keys outside a solver's own section that only some solvers read: a value other than the default is
  // refused for the others, so no setting is silently ignored (docs/scene-format.md lists who reads what)
  void checkSolverKeys(const SceneDesc& s) const {
    const SceneDesc defaults;
    auto refuse = [&](const std::string& ptr, const std::string& readers, const std::string& instead) {
      fail(ptr, "is read only by solver " + readers + ", not by the " + s.solver + " solver; " + instead);
    };
    if (s.solver == "mpm" && s.fluid.supportRatio != defaults.fluid.supportRatio)
      refuse("/fluid/support_ratio", "pbf, wcsph or dfsph",
             "MPM has no SPH kernel; its resolution is mpm.grid_resolution");
    if (s.solver == "mpm" && !s.probes.empty())
      refuse("/probes", "pbf, wcsph or dfsph",
             "probes read the particles through the SPH neighbour grid, and MPM has none; remove the probes "
             "or use pbf, wcsph or dfsph");
    if (s.solver == "mpm" && s.mpm.boundary != "separate") {
      for (std::size_t i = 0; i < s.colliders.size(); ++i) {
        const ColliderDesc& c = s.colliders[i];
        std::string ptr = pointerChild("/colliders", i);
        if (c.restitution > 0)
          fail(pointerChild(ptr, "restitution"),
               "MPM applies restitution with mpm.boundary \"separate\" only (now \"" + s.mpm.boundary +
                   "\", which takes the rebound away); use separate or restitution 0");
        if (s.mpm.boundary == "sticky" && (c.friction > 0 || c.staticFriction > 0))
          fail(pointerChild(ptr, c.friction > 0 ? "friction" : "static_friction"),
               "mpm.boundary \"sticky\" holds the material at the collider's velocity, so friction has no "
               "effect; use \"slip\" or \"separate\" with friction, or friction 0");
      }
    }
    if (s.solver != "mpm") {
      for (std::size_t i = 0; i < s.emitters.size(); ++i) {
        const MaterialDesc& m = s.emitters[i].material;
        if (m.density != 0 && m.density != s.fluid.restDensity)
          refuse(pointerChild(pointerChild(pointerChild("/emitters", i), "material"), "density"), "mpm",
                 "every " + s.solver + " particle has fluid.rest_density; leave this key out or use 0");
      }
    }
  }

  std::string overrideNote(const std::string& ptr) const {
    for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
      const std::string& op = it->first;
      // the value itself, something inside it, or the object that received an unknown key
      if (ptr == op || ptr.starts_with(op + "/") || (!ptr.empty() && op.starts_with(ptr + "/"))) {
        return " (from --set '" + it->second + "')";
      }
    }
    return {};
  }

  std::string source_;
  std::vector<std::pair<std::string, std::string>> overrides_;  // pointer, override text
};

SceneDesc parseWithSource(const std::string& text, const std::string& source,
                          const std::vector<std::string>& overrides) {
  Reader reader(source);
  Json doc = scene_json::parseDocument(text, source);
  if (!doc.is_object()) {
    throw InputError(source + ": the scene must be a JSON object { ... }, got " + describe(doc));
  }
  for (const std::string& o : overrides) reader.noteOverride(scene_json::applyOverride(doc, o, source), o);
  // a camera or target placed by --set turns the framing off, also in a scene that says "frame": true
  // (as every scene.json eddy writes does), unless --set says how to frame too
  auto sets = [&](std::string_view key) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const std::string& o) { return o.rfind(key, 0) == 0; });
  };
  if (auto render = doc.find("render"); render != doc.end() && render->is_object() &&
                                        (sets("render.camera") || sets("render.target")) &&
                                        !sets("render.frame"))
    (*render)["frame"] = false;
  SceneDesc scene = reader.readScene(doc);
  // mesh files are found beside the scene file, wherever eddy runs (and wherever a checkpoint resumes)
  std::filesystem::path dir = std::filesystem::path(source).parent_path();
  for (ColliderDesc& c : scene.colliders)
    if (c.shape.type == "mesh" && std::filesystem::path(c.shape.file).is_relative())
      c.shape.file = std::filesystem::absolute(dir / c.shape.file).lexically_normal().string();
  std::string& environment = scene.render.environment;
  if (!environment.empty() && std::filesystem::path(environment).is_relative())
    environment = std::filesystem::absolute(dir / environment).lexically_normal().string();
  loadSceneMeshes(scene);
  return scene;
}

}  // namespace

SceneDesc parseScene(const std::string& jsonText, const std::string& sourceName,
                     const std::vector<std::string>& overrides) {
  SceneDesc scene = parseWithSource(jsonText, sourceName, overrides);
  scene.sourcePath = sourceName;
  return scene;
}

SceneDesc loadScene(const std::string& path, const std::vector<std::string>& overrides) {
  if (path.empty()) {
    SceneDesc scene = parseWithSource(defaultSceneJson(), kDefaultSource, overrides);
    scene.sourcePath = "<default>";  // as documented in scene.h
    return scene;
  }
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) throw InputError("scene file '" + path + "' not found");
  if (std::filesystem::is_directory(st))
    throw InputError("scene file '" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("scene file '" + path + "' cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("scene file '" + path + "' cannot be read");
  return parseScene(text.str(), path, overrides);
}

}  // namespace eddy
