// A deterministic mutator for fuzz inputs (fuzz_input.h): byte-level edits of the scene text, structural
// edits of its JSON tree (deleted, duplicated and retyped keys, hostile numbers, deep nesting) and hostile
// "--set" overrides. The same seed number gives the same inputs on every machine (own PRNG, no <random>
// distributions), so a failure in tests/test_fuzz_corpus.cpp can be reproduced from its index.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"

namespace eddy::fuzz {

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : state_(seed) {}

  // a new input derived from seed by one to three stacked mutations
  FuzzInput mutate(const FuzzInput& seed);

  std::uint64_t next();
  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(next() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  using Json = nlohmann::ordered_json;

  void mutateText(std::string& text);
  // false when the scene text is not JSON (a previous mutation broke it)
  bool mutateTree(std::string& text);
  void mutateSets(std::vector<std::string>& sets, const std::string& sceneText);
  std::string hostileValue();

  std::uint64_t state_;
};

// "a.0.b" paths of every node below the root of a JSON document (for --set)
std::vector<std::string> dottedPaths(const nlohmann::ordered_json& doc);

}  // namespace eddy::fuzz
