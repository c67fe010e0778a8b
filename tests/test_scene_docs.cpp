// The documentation against the program: docs/scene-format.md documents every key the scene reader accepts
// in the table of the section that reads it, and nothing else; its list of shipped scenes is complete; the
// particle fields the writers write are named where the user guide and the format describe the files; and
// every `eddy` command that README.md and docs/*.md show runs from a fresh clone alone (its scene files and
// the meshes they read are in the repository, and its --set overrides are valid).
#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/scene_io.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = EDDY_SOURCE_DIR;

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  EXPECT_TRUE(in) << file << " is missing";
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// ---------------------------------------------------------------- keys, section by section

// Where each section of docs/scene-format.md is read: the heading's start, and the JSON pointer of an object
// the reader reads with that section's key list. A key table under a heading that is not listed here fails
// the test, so a new section cannot go unchecked.
struct DocSection {
  std::string heading;
  std::string pointer;
};
const std::vector<DocSection> kSections = {
    {"Top level", ""},
    {"`pbf`", "/pbf"},
    {"`wcsph`", "/wcsph"},
    {"`dfsph`", "/dfsph"},
    {"`mpm`", "/mpm"},
    {"`fluid`", "/fluid"},
    {"`domain`", "/domain"},
    {"`time`", "/time"},
    {"`forces`", "/forces"},
    {"Shapes", "/emitters/0/shape"},
    {"`colliders`", "/colliders/0"},
    {"Keyframes of a collider", "/colliders/0/keyframes/0"},
    {"`emitters`", "/emitters/0"},
    {"Materials", "/emitters/0/material"},
    {"`output`", "/output"},
    {"`surface`", "/surface"},
    {"`render`", "/render"},
    {"`probes`", "/probes/0"},
};

// a scene that holds an object at every pointer above
nlohmann::json probeScene() {
  return nlohmann::json::parse(R"({
    "pbf": {}, "wcsph": {}, "dfsph": {}, "mpm": {}, "fluid": {}, "domain": {}, "time": {}, "forces": {},
    "output": {}, "surface": {}, "render": {},
    "colliders": [{"shape": {"type": "box"}, "keyframes": [{"time": 0, "translation": [0, 0, 0]},
                                                           {"time": 1, "translation": [0, 0, 0]}]}],
    "emitters": [{"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}, "material": {}}],
    "probes": [{"name": "p", "position": [0, 1, 0]}]
  })");
}

// The keys the reader accepts in the object at `pointer`, as it lists them when it refuses an unknown one:
// the reader's own list (src/io/scene_keys.h and the nested objects it reads by hand), not a copy of it.
std::set<std::string> acceptedKeys(const std::string& pointer) {
  nlohmann::json doc = probeScene();
  doc[nlohmann::json::json_pointer(pointer + "/no_such_key")] = 0;
  try {
    parseScene(doc.dump(), "probe.json");
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const std::string unknown = "unknown key '" + pointer + "/no_such_key'; allowed keys: ";
    const std::size_t at = msg.find(unknown);
    if (at == std::string::npos) {
      ADD_FAILURE() << pointer << ": not refused as an unknown key: " << msg;
      return {};
    }
    std::string list = msg.substr(at + unknown.size());
    list = list.substr(0, list.find(';'));
    std::set<std::string> keys;
    std::stringstream items(list);
    for (std::string k; std::getline(items, k, ',');) keys.insert(k.substr(k.find_first_not_of(' ')));
    return keys;
  }
  ADD_FAILURE() << pointer << ": an unknown key was accepted";
  return {};
}

// The first column of every "| key | ..." table under each "###" or "####" heading of the document.
std::map<std::string, std::vector<std::string>> documentedKeys(const std::string& doc) {
  std::map<std::string, std::vector<std::string>> out;
  std::stringstream lines(doc);
  std::string heading;
  bool inTable = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("### ") || line.starts_with("#### ")) {
      heading = line.substr(line.find(' ') + 1);
      inTable = false;
    } else if (line.starts_with("| key |")) {
      inTable = true;
    } else if (!line.starts_with("|")) {
      inTable = false;
    } else if (inTable && !line.starts_with("|---")) {
      static const std::regex firstCell(R"(^\| `([a-z_0-9]+)` \|)");
      std::smatch m;
      if (std::regex_search(line, m, firstCell)) {
        out[heading].push_back(m[1]);
      } else {
        out[heading].push_back("(unreadable row: " + line.substr(0, 40) + ")");
      }
    }
  }
  return out;
}

// Every difference between the document's key tables and the reader, one line each; empty when they agree.
std::vector<std::string> keyTableMismatches(const std::string& doc) {
  std::vector<std::string> problems;
  const auto tables = documentedKeys(doc);
  for (const auto& [heading, keys] : tables) {
    auto section = std::find_if(kSections.begin(), kSections.end(),
                                [&](const DocSection& s) { return heading.starts_with(s.heading); });
    if (section == kSections.end())
      problems.push_back("a key table under '" + heading + "', a section not checked");
  }
  for (const DocSection& s : kSections) {
    auto table = std::find_if(tables.begin(), tables.end(),
                              [&](const auto& t) { return t.first.starts_with(s.heading); });
    if (table == tables.end()) {
      problems.push_back("no key table under a heading '" + s.heading + "...'");
      continue;
    }
    const std::set<std::string> accepted = acceptedKeys(s.pointer);
    std::set<std::string> documented;
    for (const std::string& k : table->second) {
      if (!documented.insert(k).second) problems.push_back(s.heading + ": `" + k + "` is documented twice");
      if (!accepted.contains(k))
        problems.push_back(s.heading + ": `" + k + "` is documented, but the reader refuses it at '" +
                           s.pointer + "'");
    }
    for (const std::string& k : accepted)
      if (!documented.contains(k))
        problems.push_back(s.heading + ": `" + k + "` is read at '" + s.pointer +
                           "' but not in this section's table");
  }
  return problems;
}

std::string sceneFormat() { return readText(kRoot + "/docs/scene-format.md"); }

TEST(SceneIo, EveryKeyIsDocumentedInItsSection) {
  for (const std::string& p : keyTableMismatches(sceneFormat())) ADD_FAILURE() << p;
  // the mesh's box is documented in the row of "fit_into", which holds it
  const std::set<std::string> box = acceptedKeys("/colliders/0/shape/fit_into");
  EXPECT_EQ(box, (std::set<std::string>{"min", "max"}));
  static const std::regex fitRow(R"(\n\| `fit_into` \|[^\n]*\{"min": \[x, y, z\], "max": \[x, y, z\]\})");
  EXPECT_TRUE(std::regex_search(sceneFormat(), fitRow)) << "the row of fit_into no longer shows its keys";
}

// the check itself: a row moved to another section's table is caught in both sections
TEST(SceneIo, KeyDocumentationCheckCatchesAMovedKey) {
  std::string doc = sceneFormat();
  const std::string dragRow =
      "| `drag` | number | 1/s | 0 | ≥ 0 | linear drag c_d: acceleration −c_d (v − wind_velocity) |\n";
  const std::size_t at = doc.find(dragRow);
  ASSERT_NE(at, std::string::npos) << "the row of forces.drag changed; update this test";
  doc.erase(at, dragRow.size());
  const std::size_t time = doc.find("| `fps` |");
  ASSERT_NE(time, std::string::npos);
  doc.insert(time, dragRow);
  const std::vector<std::string> problems = keyTableMismatches(doc);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], "`time`: `drag` is documented, but the reader refuses it at '/time'");
  EXPECT_EQ(problems[1], "`forces`: `drag` is read at '/forces' but not in this section's table");
}

// ---------------------------------------------------------------- shipped scenes

std::vector<std::string> shippedScenes() {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot + "/scenes"))
    if (entry.path().extension() == ".json")
      out.push_back(fs::relative(entry.path(), kRoot).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SceneIo, EveryShippedSceneIsInTheFormatsTable) {
  const std::string doc = sceneFormat();
  const std::vector<std::string> scenes = shippedScenes();
  EXPECT_GE(scenes.size(), 20u);
  for (const std::string& scene : scenes)
    EXPECT_NE(doc.find("| `" + scene + "` |"), std::string::npos)
        << scene << " is not in the table of shipped scenes";
}

// A shipped scene reads meshes from the repository, or a Stanford model that does not ship (named stanford-*,
// which the missing-mesh message explains); every mesh it reads from the repository is there.
TEST(SceneIo, ShippedScenesFindTheirMeshes) {
  int inRepository = 0;
  for (const std::string& name : shippedScenes()) {
    const SceneDesc scene = loadScene(kRoot + "/" + name);
    std::vector<const ShapeDesc*> shapes;
    for (const ColliderDesc& c : scene.colliders) shapes.push_back(&c.shape);
    for (const EmitterDesc& e : scene.emitters) shapes.push_back(&e.shape);
    for (const ShapeDesc* s : shapes) {
      if (s->type != "mesh") continue;
      const fs::path file = fs::weakly_canonical(s->file);
      const std::string rel = fs::relative(file, fs::weakly_canonical(kRoot)).generic_string();
      if (rel.starts_with("..")) {
        EXPECT_TRUE(file.filename().string().starts_with("stanford-")) << name << " reads " << file;
      } else {
        ++inRepository;
        EXPECT_TRUE(fs::is_regular_file(file)) << name << " reads " << file << ", which is missing";
      }
    }
  }
  EXPECT_GE(inRepository, 2);
}

// ---------------------------------------------------------------- particle file fields

TEST(SceneIo, ParticleFieldsAreDocumented) {
  HostParticles p;
  p.position = {{0, 0, 0}};
  p.velocity = {{0, 0, 0}};
  p.density = {1000};
  p.id = {0};
  p.pressure = {0};
  p.material = {0};
  std::vector<std::string> fields;
  const std::string vtu = encodeVtu(p);
  static const std::regex name(R"re(<DataArray [^>]*Name="([A-Za-z_]+)")re");
  const std::set<std::string> structure = {"Points", "connectivity", "offsets", "types"};
  for (auto it = std::sregex_iterator(vtu.begin(), vtu.end(), name); it != std::sregex_iterator(); ++it)
    if (!structure.contains((*it)[1])) fields.push_back((*it)[1]);
  ASSERT_EQ(fields.size(), 5u);  // velocity, density, pressure, id, material
  // the user guide's sentence on what DIR receives, and the scene format's row of output.format
  const std::string readme = readText(kRoot + "/docs/guide.md");
  const std::size_t from = readme.find("- DIR receives"), to = readme.find("`stats.jsonl`", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::string receives = readme.substr(from, to - from);
  const std::string doc = sceneFormat();
  const std::size_t row = doc.find("| `format` | string | | `\"ply\"` |");
  ASSERT_NE(row, std::string::npos);
  const std::string formatRow = doc.substr(row, doc.find('\n', row) - row);
  for (const std::string& f : fields) {
    EXPECT_NE(receives.find(f), std::string::npos) << "docs/guide.md does not name the field " << f;
    EXPECT_NE(formatRow.find(f), std::string::npos)
        << "docs/scene-format.md's output.format does not name " << f;
  }
}

// ---------------------------------------------------------------- commands in the documentation

// Shell words of one command: quotes removed, a backslash before a newline joins lines.
std::vector<std::string> shellWords(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c, inWord = true;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord) words.push_back(word), word.clear(), inWord = false;
    } else if (c == '#' && !inWord) {
      break;  // a comment to the end of the command
    } else {
      word += c, inWord = true;
    }
  }
  if (inWord) words.push_back(word);
  return words;
}

struct DocCommand {
  std::string where;              // file:line
  std::vector<std::string> args;  // after "eddy"
};

// Every `./build/bin/eddy ...` (in fenced or indented blocks, to the end of the line and its continuations,
// or in inline code, to the closing backquote), and `eddy ...` lines of fenced blocks. Commands over a shell
// variable (a loop's `$w`) are left out.
std::vector<DocCommand> documentedCommands(const std::string& file) {
  std::vector<DocCommand> out;
  const std::string text = readText(file);
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  const std::string eddy = "./build/bin/eddy ";
  bool block = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t line = i;
    if (lines[i].starts_with("```")) {
      block = !block;
      continue;
    }
    std::vector<std::string> found;
    const bool indented = lines[i].starts_with("    ");
    if (block || indented) {
      std::size_t at = lines[i].find(eddy);
      if (at == std::string::npos && block && lines[i].starts_with("eddy ")) at = 0;
      if (at != std::string::npos) {
        std::string cmd = lines[i].substr(at);
        while (cmd.ends_with("\\") && i + 1 < lines.size()) cmd += "\n" + lines[++i];
        found.push_back(cmd);
      }
    } else {
      for (std::size_t at = lines[i].find("`" + eddy); at != std::string::npos;
           at = lines[i].find("`" + eddy, at + 1)) {
        const std::size_t end = lines[i].find('`', at + 1);
        if (end != std::string::npos) found.push_back(lines[i].substr(at + 1, end - at - 1));
      }
    }
    for (const std::string& cmd : found) {
      if (cmd.find('$') != std::string::npos) continue;
      std::vector<std::string> words = shellWords(cmd.substr(0, cmd.find(';')));
      words.erase(words.begin());
      out.push_back({fs::relative(file, kRoot).generic_string() + ":" + std::to_string(line + 1), words});
    }
  }
  return out;
}

TEST(SceneIo, DocumentedCommandsNeedOnlyTheRepository) {
  std::vector<std::string> files = {kRoot + "/README.md"};
  for (const auto& entry : fs::directory_iterator(kRoot + "/docs"))
    if (entry.path().extension() == ".md") files.push_back(entry.path().string());
  // options whose value is written, not read
  const std::set<std::string> outputs = {"--out", "--json", "--screenshot", "--video"};
  int commands = 0, scenes = 0;
  for (const std::string& file : files) {
    for (const DocCommand& c : documentedCommands(file)) {
      ++commands;
      const std::string& command = c.args.empty() ? std::string() : c.args[0];
      std::string scene;
      std::vector<std::string> sets;
      for (std::size_t k = 1; k < c.args.size(); ++k) {
        const std::string& a = c.args[k];
        if (outputs.contains(a)) {
          ++k;
          continue;
        }
        if (a == "--set" && k + 1 < c.args.size()) {
          sets.push_back(c.args[++k]);
          continue;
        }
        if (a.ends_with(".json") || a.ends_with(".obj") || a.ends_with(".ply")) {
          EXPECT_FALSE(a.starts_with("..")) << c.where << ": reads " << a << " from outside the repository";
          EXPECT_TRUE(fs::is_regular_file(kRoot + "/" + a))
              << c.where << ": " << a << " is not in the repository";
          if (a.ends_with(".json")) scene = a;
        }
      }
      if (command != "run" && command != "view") continue;
      // the scene with its overrides as the command gives them, and the meshes it reads
      try {
        const SceneDesc s = loadScene(scene.empty() ? "" : kRoot + "/" + scene, sets);
        ++scenes;
        std::vector<std::string> meshes;
        for (const ColliderDesc& col : s.colliders)
          if (col.shape.type == "mesh") meshes.push_back(col.shape.file);
        for (const EmitterDesc& e : s.emitters)
          if (e.shape.type == "mesh") meshes.push_back(e.shape.file);
        for (const std::string& m : meshes) {
          const std::string rel =
              fs::relative(fs::weakly_canonical(m), fs::weakly_canonical(kRoot)).generic_string();
          EXPECT_FALSE(rel.starts_with(".."))
              << c.where << ": the scene reads " << m << " from outside the repository";
          EXPECT_TRUE(fs::is_regular_file(m)) << c.where << ": the scene reads " << m << ", which is missing";
        }
      } catch (const InputError& e) {
        ADD_FAILURE() << c.where << ": " << e.what();
      }
    }
  }
  std::printf("%d documented eddy commands, %d scenes of eddy run and eddy view loaded with their --set\n",
              commands, scenes);
  EXPECT_GE(commands, 30);
  EXPECT_GE(scenes, 10);
}

}  // namespace
}  // namespace eddy
