// A rigid body's locks (the collider's "locks" key): the world axes along which it may not move and about
// which it may not turn, as masks of 1 (free) and 0 (held) that its velocities and the impulses on it are
// multiplied by. Host-only parsing, shared by the scene reader and the simulation.
#pragma once

#include <eddy/vec3.h>

#include <string>

namespace eddy {

struct BodyLocks {
  Vec3 freeLinear{1, 1, 1};   // along world x, y, z
  Vec3 freeAngular{1, 1, 1};  // about world x, y, z through the centre
};

// "x z rx ry": words "x" "y" "z" "rx" "ry" "rz" separated by spaces or commas, each at most once. Returns
// false where the text is not such a list, with what is wrong in `bad`: "'w' is not a lock" or "'x' is
// given twice".
inline bool parseBodyLocks(const std::string& text, BodyLocks& locks, std::string& bad) {
  locks = BodyLocks{};
  std::string word;
  auto take = [&]() {
    if (word.empty()) return true;
    const bool turn = word.size() == 2 && word[0] == 'r';
    const char axis = turn ? word[1] : word.size() == 1 ? word[0] : '\0';
    if (axis < 'x' || axis > 'z') {
      bad = "'" + word + "' is not a lock";
      return false;
    }
    Real& slot = (&(turn ? locks.freeAngular : locks.freeLinear).x)[axis - 'x'];
    if (slot == 0) {
      bad = "'" + word + "' is given twice";
      return false;
    }
    slot = 0;
    word.clear();
    return true;
  };
  for (char ch : text) {
    if (ch == ' ' || ch == ',') {
      if (!take()) return false;
    } else {
      word += ch;
    }
  }
  return take();
}

}  // namespace eddy
