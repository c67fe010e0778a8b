// The rigid bodies' track as `eddy run` writes it to bodies.csv: a header "time,NAME.x,NAME.y,...", then a
// row a frame with, per body, the columns kBodyColumns names. For programs that draw or post-process a
// run's bodies: `eddy render` poses them from it, and a ParaView or Blender user keys a mesh's transform on
// its centre and quaternion.
#pragma once

#include <eddy/simulation.h>
#include <eddy/simulation_desc.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace eddy {

// a body's columns, each "NAME." and one of these, in this order: its shape's centre (m; a mesh's origin,
// which with the orientation keys the mesh's transform), its orientation quaternion (local -> world), that
// centre's linear velocity (m/s) and the angular velocity (rad/s), and the fluid's force (N) and torque
// about the centre of mass (N m) over the frame's last substep
inline constexpr std::array<const char*, 19> kBodyColumns{"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                                          "vx", "vy", "vz", "wx", "wy", "wz", "fx",
                                                          "fy", "fz", "tx", "ty", "tz"};

struct BodyTrack {
  std::vector<std::string> names;                // the bodies, in the file's order
  std::vector<double> times;                     // s, a row a frame
  std::vector<std::vector<ColliderPose>> poses;  // [row][body]
  std::vector<std::vector<FluidLoad>> loads;     // [row][body]

  // the body called `name`, or -1
  int find(const std::string& name) const;
  // the row whose time is nearest to `time` (s); -1 for a track without rows
  long rowAt(double time) const;
};

// the name of a body's columns: the collider's "name", else "collider" and its index in the scene
std::string bodyName(const SimulationDesc& scene, std::size_t collider);

// Reads bodies.csv. Throws InputError naming the file, and the line and column where there is one, for a
// file that cannot be read or is not such a track (a header whose columns are not whole bodies in
// kBodyColumns' order, a row of the wrong length, a value that is not a number). An empty value (where
// the run stopped on a value that was not finite) reads as NaN.
BodyTrack readBodyTrack(const std::string& path);

}  // namespace eddy
