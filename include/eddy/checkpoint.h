// Checkpoints: the state of a run between two frames in one file, so that `eddy run --resume` can go on
// from it exactly as the run would have gone on. Host side only; the state itself comes from
// Simulation::saveState and goes back through Simulation::restoreState.
//
// File layout (all integers little-endian; the particle data is the engine's raw 32-bit words, so
// checkpoints move between little-endian hosts only):
//
//   header   "EDDYCKPT" (8 bytes), u32 format version, u64 payload size, u64 FNV-1a 64 of the payload
//   payload  str eddy version (include/eddy/version.h)
//            str resolved scene (sceneToJson), u64 scene hash (checkpointSceneHash)
//            i32 frame, f64 time, i64 substeps, i64 particles, u32 next particle id
//            u32 attribute count, then per attribute: str name, u32 components, u32 type, blob data
//            blob solver state (opaque, Solver::saveState)
//            u32 nozzle count, then per nozzle: f64 next release, u8 started, f64 rate carry, u64 cursor,
//            i64 emitted
//   (str and blob: a u64 byte count, then the bytes)
//
// The header is checked before anything else (wrong magic, another format version, a file shorter or
// longer than the header says, a checksum that does not match), then the eddy version: a checkpoint is
// resumed only by the version that wrote it, since another version may step differently.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>
#include <eddy/version.h>

#include <cstdint>
#include <string>
#include <vector>

namespace eddy {

inline constexpr std::uint32_t kCheckpointFormatVersion = 3;

struct Checkpoint {
  std::string eddyVersion = kVersion;  // of the program that wrote it
  std::string sceneJson;               // the resolved scene, every key (sceneToJson)
  std::uint64_t sceneHash = 0;         // checkpointSceneHash of that scene
  SimulationState state;
};

// The scene's identity for resuming: FNV-1a 64 of sceneToJson with time.frames left out, since a resumed
// run may stop at another frame than the run that wrote the checkpoint (--frames).
std::uint64_t checkpointSceneHash(const SceneDesc& scene);

// "" when the two scenes agree on everything but time.frames; otherwise the first difference, as
// "/fluid/spacing is 0.04 in the checkpoint, 0.05 here"
std::string sceneDifference(const SceneDesc& checkpoint, const SceneDesc& here);

// the checkpoint of a simulation as it stands (between frames)
Checkpoint makeCheckpoint(Simulation& sim);

std::string encodeCheckpoint(const Checkpoint& c);
// Checks and parses the bytes of a checkpoint file; `path` names it in messages. Throws InputError for
// a file that is not a checkpoint, another format version, a truncated or corrupted file, or another eddy
// version (in that order).
Checkpoint decodeCheckpoint(const std::string& bytes, const std::string& path);

// "checkpoint_000120.eddy"
std::string checkpointFileName(int frame);
// the checkpoints folder of a run's output folder: DIR/checkpoints
std::string checkpointDir(const std::string& outputDir);
// frames of the complete checkpoint files in folder (names as checkpointFileName), ascending; empty
// where there are none or the folder does not exist
std::vector<int> checkpointFrames(const std::string& folder);

// reads and decodes one file (InputError naming it when it cannot be read or fails a check)
Checkpoint readCheckpoint(const std::string& path);
// Writes folder/checkpoint_<frame>.eddy atomically (creating folder), then deletes all but the newest
// `keep` checkpoint files, so an interruption at any point leaves at least one complete checkpoint.
// Returns the path written.
std::string writeCheckpoint(const std::string& folder, const Checkpoint& c, int keep = 2);

}  // namespace eddy
