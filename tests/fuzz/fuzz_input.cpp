// See fuzz_input.h.
#include "fuzz/fuzz_input.h"

#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <typeinfo>

namespace eddy::fuzz {

namespace {

constexpr std::string_view kSectionMark = "@@";

// the lines of a "set" section; empty lines carry no override
void appendLines(std::string_view text, std::vector<std::string>& out) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty()) out.emplace_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

// where the next line that starts with the section mark begins, at or after from (a line start)
std::size_t nextMark(std::string_view bytes, std::size_t from) {
  if (bytes.substr(from).starts_with(kSectionMark)) return from;
  const std::size_t at = bytes.find(std::string("\n").append(kSectionMark), from);
  return at == std::string_view::npos ? at : at + 1;
}

// half the diagonal of the bounding box of a shape in any rotation (planes hold no particles)
double shapeReach(const ShapeDesc& s) {
  if (s.type == "box") return std::sqrt(double(dot(s.halfExtents, s.halfExtents)));
  if (s.type == "sphere") return s.radius;
  if (s.type == "capsule" || s.type == "cylinder") return double(s.radius) + s.halfHeight;
  return 0;
}

std::string describeException(const std::exception& e) {
  return std::string("exception ") + typeid(e).name() + ": " + e.what();
}

// builds the CPU simulation and exercises what eddy run does with it: a substep, stats, output encoding
void simulate(const SceneDesc& scene) {
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  sim->advanceSubstep(Real(1.0 / (double(scene.time.fps) * scene.time.substeps)));
  (void)statsJsonLine(sim->stats());
  HostParticles host;
  sim->copyParticles(host);
  (void)(scene.output.format == "vtk" ? encodeVtu(host) : encodePly(host));
}

}  // namespace

FuzzInput splitInput(std::string_view bytes) {
  FuzzInput input;
  std::string_view kind = "scene";  // the text before the first mark
  std::size_t bodyStart = 0;
  for (;;) {
    const std::size_t mark = nextMark(bytes, bodyStart);
    const std::string_view body =
        bytes.substr(bodyStart, mark == std::string_view::npos ? std::string_view::npos : mark - bodyStart);
    if (kind == "scene") {
      input.scene = std::string(body);
    } else if (kind == "set") {
      appendLines(body, input.sets);
    }
    if (mark == std::string_view::npos) break;
    const std::size_t eol = bytes.find('\n', mark);
    const std::size_t kindStart = mark + kSectionMark.size();
    kind = bytes.substr(kindStart, eol == std::string_view::npos ? std::string_view::npos : eol - kindStart);
    if (kind == "scene") kind = {};  // only the leading text is the scene
    bodyStart = eol == std::string_view::npos ? bytes.size() : eol + 1;
  }
  return input;
}

std::string joinInput(const FuzzInput& input) {
  std::string out = input.scene;
  if (input.sets.empty()) return out;
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "@@set\n";
  for (const std::string& s : input.sets) out += s + "\n";
  return out;
}

bool withinLimits(const SceneDesc& scene, const SimulationLimits& limits) {
  if (scene.solver == "mpm" && scene.mpm.gridResolution > limits.maxGridResolution) return false;
  const double spacing = scene.fluid.spacing;
  double particles = 0;
  for (const EmitterDesc& e : scene.emitters) {
    if (e.type == "nozzle") {
      particles += double(e.maxParticles);
      continue;
    }
    const ShapeDesc* shape = &e.shape;
    for (const ColliderDesc& c : scene.colliders)
      if (!e.collider.empty() && c.name == e.collider) shape = &c.shape;
    // a bcc lattice holds two points per cell of edge 2^(1/3) spacing
    const double perAxis = 2 * shapeReach(*shape) / spacing + 2;
    particles += 2 * perAxis * perAxis * perAxis;
  }
  return particles <= double(limits.maxParticles);
}

Result checkInput(const FuzzInput& input, const SimulationLimits& limits) {
  Result r;
  SceneDesc scene;
  try {
    scene = parseScene(input.scene, "<fuzz>", input.sets);
  } catch (const InputError& e) {
    r.message = e.what();
    return r;
  } catch (const std::exception& e) {
    r.finding = "parseScene threw " + describeException(e);
    return r;
  } catch (...) {
    r.finding = "parseScene threw something that is not a std::exception";
    return r;
  }
  r.outcome = Outcome::Parsed;

  // what eddy writes as scene.json must read back: the writer and the reader share one schema
  try {
    (void)parseScene(sceneToJson(scene), "<fuzz: scene.json>");
  } catch (const std::exception& e) {
    r.finding = "the written scene does not read back: " + describeException(e);
    return r;
  }

  if (!limits.simulate || !withinLimits(scene, limits)) return r;
  try {
    simulate(scene);
    r.outcome = Outcome::Simulated;
  } catch (const InputError& e) {
    r.outcome = Outcome::Rejected;
    r.message = e.what();
  } catch (const SimulationBlowUp& e) {
    // a valid scene that blows up must stop loudly, as it did: not a finding
    r.outcome = Outcome::BlewUp;
    r.message = e.what();
  } catch (const std::exception& e) {
    r.finding = "the simulation threw " + describeException(e);
  } catch (...) {
    r.finding = "the simulation threw something that is not a std::exception";
  }
  return r;
}

}  // namespace eddy::fuzz
