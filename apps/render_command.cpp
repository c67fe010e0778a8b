// `eddy render`: every frame of a run drawn to OUT/frame_NNNNNN.png. Frames are read and checked first, so
// bad input writes nothing, then read again one at a time to draw; the camera frames all of them unless
// given.
#include "render_command.h"

#include <eddy/body_track.h>
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <eddy/particle_files.h>
#include <eddy/picture.h>
#include <eddy/scene_io.h>
#include <eddy/surface.h>
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#ifdef EDDY_WITH_RENDER
#include <eddy/render.h>
#endif

namespace eddy::app {

namespace {

namespace fs = std::filesystem;

struct Frame {
  std::string path;
  std::string number;  // the digits of the file's name (frame_NUMBER.png), or its stem where it has none
  long long index;     // the simulated frame it shows, from those digits; -1 where the name has none
};

// the digits after `prefix` in a file's stem ("particles_000120" -> "000120"), or ""
std::string frameDigits(const std::string& stem, const std::string& prefix) {
  if (stem.rfind(prefix, 0) != 0 || stem.size() == prefix.size()) return "";
  const std::string digits = stem.substr(prefix.size());
  return digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 16 ? digits : "";
}

// The folder's particles_NNNNNN.ply (or, for surfaces, surface_NNNNNN.ply / .obj, else the water's
// surface_water_NNNNNN of an MPM scene's surfaces per material) in order, or the one file given
std::vector<Frame> listFrames(const std::string& input, bool surfaces) {
  std::error_code ec;
  if (!fs::exists(input, ec)) throw InputError("render: input '" + input + "' not found");
  const std::vector<std::string> prefixes = surfaces ? std::vector<std::string>{"surface_", "surface_water_"}
                                                     : std::vector<std::string>{"particles_"};
  if (!fs::is_directory(input, ec)) {
    const std::string stem = fs::path(input).stem().string();
    for (const std::string& prefix : {"particles_", "surface_water_", "surface_"})
      if (const std::string digits = frameDigits(stem, prefix); !digits.empty())
        return {{input, digits, std::stoll(digits)}};
    return {{input, stem, -1}};
  }
  std::vector<Frame> frames;
  for (const std::string& prefix : prefixes) {
    for (const auto& e : fs::directory_iterator(input, ec)) {
      const std::string stem = e.path().stem().string(), ext = e.path().extension().string();
      const std::string digits = frameDigits(stem, prefix);
      if (!digits.empty() && (ext == ".ply" || (surfaces ? ext == ".obj" : ext == ".vtu")))
        frames.push_back({e.path().string(), digits, std::stoll(digits)});
    }
    if (!frames.empty()) break;  // one surface of every particle before the water's own
  }
  if (frames.empty())
    throw InputError(
        "render: input folder '" + input + "' holds no " +
        (surfaces ? "surfaces (surface_NNNNNN.ply or .obj, or an MPM scene's surface_water_NNNNNN.ply, as "
                    "`eddy run --surface` and `eddy surface` write)"
                  : "particle frames (particles_NNNNNN.ply or .vtu, as `eddy run` writes)"));
  std::sort(frames.begin(), frames.end(), [](const Frame& a, const Frame& b) { return a.index < b.index; });
  return frames;
}

// frames apart in the run: the mean step between the frames' numbers (output.every), 1 where unknown
double frameSpacing(const std::vector<Frame>& frames) {
  if (frames.size() < 2 || frames.front().index < 0 || frames.back().index <= frames.front().index) return 1;
  return double(frames.back().index - frames.front().index) / double(frames.size() - 1);
}

// true where a file can be made in the folder (made and removed at once)
bool canWriteIn(const fs::path& folder) {
  const std::string probe = (folder / (".eddy-render-probe-" + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

// the nearest folder at or above path that exists ("." for a relative path with none)
fs::path existingAncestor(fs::path path) {
  std::error_code ec;
  while (!path.empty() && !fs::exists(path, ec)) path = path.parent_path();
  return path.empty() ? fs::path(".") : path;
}

Vec3 vec3Of(const std::vector<double>& v, const char* flag) {
  if (v.size() != 3) throw InputError(std::string("render: ") + flag + " takes three numbers X,Y,Z");
  return Vec3{Real(v[0]), Real(v[1]), Real(v[2])};
}

// the particles of a surface's frame, which give an MPM scene's sand, snow and jelly beside its water:
// particles_NNNNNN.ply, or .vtu for a run written as VTK; "" where there are none
std::string particlesBeside(const Frame& f) {
  std::error_code ec;
  for (const char* ext : {".ply", ".vtu"}) {
    const fs::path beside = fs::path(f.path).parent_path() / ("particles_" + f.number + ext);
    if (fs::is_regular_file(beside, ec)) return beside.string();
  }
  return "";
}

// the run's scene.json (beside its frames), or an empty path
fs::path sceneOfRun(const std::string& input) {
  const fs::path dir = fs::is_directory(input) ? fs::path(input) : fs::path(input).parent_path();
  return fs::exists(dir / "scene.json") ? dir / "scene.json" : fs::path();
}

#ifdef EDDY_WITH_RENDER
// The run's rigid bodies as bodies.csv beside its frames tracks them: per body of the scene, its collider
// and its column group in the track. Without the file they are drawn where the scene puts them, with a
// word; a track that lacks one of the scene's bodies is refused.
struct RunBodies {
  BodyTrack track;
  std::vector<std::pair<std::size_t, int>> columns;  // collider, body in the track
};

RunBodies bodiesOfRun(const fs::path& sceneFile, const SceneDesc& scene, bool quiet) {
  RunBodies out;
  std::vector<std::size_t> bodies;
  for (std::size_t i = 0; i < scene.colliders.size(); ++i)
    if (scene.colliders[i].density > 0) bodies.push_back(i);
  if (bodies.empty()) return out;
  const fs::path csv = sceneFile.parent_path() / "bodies.csv";
  std::error_code ec;
  if (!fs::is_regular_file(csv, ec)) {
    if (!quiet)
      std::printf(
          "eddy render: no bodies.csv beside the frames, so the rigid bodies are drawn where the scene "
          "puts them\n");
    return out;
  }
  out.track = readBodyTrack(csv.string());
  for (std::size_t i : bodies) {
    const int b = out.track.find(bodyName(scene, i));
    if (b < 0)
      throw InputError("render: " + csv.string() + " has no columns of the scene's body '" +
                       bodyName(scene, i) + "' (/colliders/" + std::to_string(i) + ")");
    out.columns.emplace_back(i, b);
  }
  return out;
}

// the bodies' poses in the track's row nearest to `time`; a pose that is not finite is left to the scene
std::vector<std::pair<std::size_t, ColliderPose>> bodyPosesAt(const RunBodies& bodies, double time) {
  std::vector<std::pair<std::size_t, ColliderPose>> poses;
  const long row = bodies.track.rowAt(time);
  if (row < 0) return poses;
  for (const auto& [collider, b] : bodies.columns) {
    const ColliderPose& p = bodies.track.poses[std::size_t(row)][std::size_t(b)];
    const Quat& q = p.orientation;
    if (std::isfinite(p.center.x + p.center.y + p.center.z + q.w + q.x + q.y + q.z))
      poses.emplace_back(collider, p);
  }
  return poses;
}
#endif

// the path as one word for the shell
std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Frames piped to ffmpeg as raw RGB, encoded to H.264 in a temporary file that is renamed when ffmpeg
// succeeds, so a failed or interrupted encode leaves no video behind
class VideoWriter {
 public:
  VideoWriter(const std::string& path, int width, int height, double fps) : path_(path) {
    temporary_ = path + ".partial.mp4";
    // yuv420p wants even sides: pad by a pixel where needed
    const std::string command =
        "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgb24 -s " + std::to_string(width) + "x" +
        std::to_string(height) + " -r " + std::to_string(fps) +
        " -i - -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -pix_fmt yuv420p " + shellQuoted(temporary_);
    // a failed ffmpeg closes the pipe: the next write must fail, not kill eddy with SIGPIPE
    std::signal(SIGPIPE, SIG_IGN);
    pipe_ = popen(command.c_str(), "w");
    if (!pipe_) throw RuntimeFailure("render: --video: ffmpeg could not be started");
  }
  ~VideoWriter() {
    if (pipe_) pclose(pipe_);
    std::error_code ec;
    fs::remove(temporary_, ec);
  }
  void add(const Picture& picture) {
    // raw RGB: the picture's alpha left out
    rgb_.resize(std::size_t(picture.width) * picture.height * 3);
    for (std::size_t i = 0, n = rgb_.size() / 3; i < n; ++i)
      for (int c = 0; c < 3; ++c) rgb_[3 * i + c] = picture.rgba[4 * i + c];
    if (std::fwrite(rgb_.data(), 1, rgb_.size(), pipe_) != rgb_.size())
      throw RuntimeFailure("render: --video: ffmpeg stopped taking frames");
  }
  void finish() {
    const int status = pclose(pipe_);
    pipe_ = nullptr;
    if (status != 0) throw RuntimeFailure("render: --video: ffmpeg failed to encode '" + path_ + "'");
    fs::rename(temporary_, path_);
  }

 private:
  std::string path_, temporary_;
  std::FILE* pipe_ = nullptr;
  std::vector<std::uint8_t> rgb_;
};

bool ffmpegInstalled() { return std::system("command -v ffmpeg >/dev/null 2>&1") == 0; }

// half the run's spacing, from the scene.json `eddy run` writes beside its frames
double radiusOfRun(const std::string& input) {
  const fs::path scene = sceneOfRun(input);
  if (scene.empty())
    throw InputError("render: no scene.json beside '" + input +
                     "' to take the particle size from; give --radius");
  return 0.5 * double(loadScene(scene.string(), {}).fluid.spacing);
}

}  // namespace

CLI::Validator finiteNumber() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() && !std::isfinite(v)) return "'" + text + "' is not a finite number";
        return "";  // a finite number, or no number at all (which the option's own conversion refuses)
      },
      "FINITE");
}

void parseSize(const std::string& text, const std::string& flag, int& width, int& height) {
  char x = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &width, &x, &height, &rest) != 3 || (x != 'x' && x != 'X'))
    throw InputError(flag + " '" + text + "': expected WIDTHxHEIGHT, for example 1280x720");
  if (width <= 0 || height <= 0)
    throw InputError(flag + " '" + text + "': width and height must be positive");
}

CLI::App* addRenderCommand(CLI::App& app, RenderOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "render",
      "Draw the particle frames of an earlier run to PNG images (OpenGL through EGL: the GPU where there is "
      "one, Mesa's llvmpipe where there is not).");
  sub->add_option("input", o.input,
                  "A run's folder of particles_NNNNNN.ply or .vtu frames (or surface_NNNNNN.ply / .obj, else "
                  "an MPM run's surface_water_NNNNNN.ply, with --mode surface), or one such file.")
      ->required()
      ->type_name("PATH");
  sub->add_option(
         "--out", o.out,
         "Folder for frame_NNNNNN.png (default: INPUT/render, for one file the render folder beside it).")
      ->type_name("DIR");
  sub->add_option(
         "--mode", o.mode,
         "What to draw: particles (spheres coloured by speed), ssfr (screen-space fluid: the particles as "
         "one smooth body of water, no mesh needed) or surface (the surface_NNNNNN meshes of `eddy run "
         "--surface` or `eddy surface`, shaded as water). Default: the scene's render.mode, else particles.")
      ->check(CLI::IsMember({"particles", "ssfr", "surface"}));
  sub->add_option("--size", o.size, "Image size in pixels (default 1280x720).")->type_name("WxH");
  sub->add_option(
         "--camera", o.camera,
         "Camera position (default: the scene's render.camera, else framing every frame's particles).")
      ->delimiter(',')
      ->expected(3)
      ->check(finiteNumber())
      ->type_name("X,Y,Z");
  sub->add_option("--target", o.target,
                  "The point the camera looks at (default: the centre of every frame's particles).")
      ->delimiter(',')
      ->expected(3)
      ->check(finiteNumber())
      ->type_name("X,Y,Z");
  sub->add_option("--fov", o.fov, "Vertical field of view in degrees (default: the scene's render.fov, 40).")
      ->check(finiteNumber())
      ->check(CLI::Range(1.0, 170.0))
      ->type_name("DEG");
  sub->add_option(
         "--environment", o.environment,
         "An equirectangular PNG or Radiance HDR (.hdr, tone-mapped) image the water reflects (ssfr and "
         "surface) instead of the procedural sky "
         "(default: the scene's render.environment).")
      ->type_name("FILE.png|FILE.hdr");
  sub->add_option("--set", o.sets,
                  "Override a key of the run's scene.json before drawing, e.g. --set render.fov=30 "
                  "(repeatable).")
      ->type_name("KEY=VALUE");
  sub->add_option("--radius", o.radius, "Particle radius in m (default: half the run's fluid.spacing).")
      ->check(finiteNumber())
      ->check(CLI::PositiveNumber)
      ->type_name("M");
  sub->add_option("--speed-top", o.speedTop,
                  "Speed at the top of the colour map, m/s (default: the fastest particle of all frames).")
      ->check(finiteNumber())
      ->check(CLI::PositiveNumber)
      ->type_name("M/S");
  sub->add_option("--color-by", o.colorBy,
                  "What colours the particles in particles mode: speed (m/s), density (kg/m^3, from the rest "
                  "density up), id (emission order) or material (MPM: sand, snow, jelly and water each their "
                  "own colour). Default: the scene's render.color_by, else speed.")
      ->check(CLI::IsMember({"speed", "density", "id", "material"}));
  sub->add_option(
         "--video", o.video,
         "Also an H.264 MP4 of the frames, made by ffmpeg where it is installed (without it, the PNGs "
         "and a note).")
      ->type_name("FILE.mp4");
  sub->add_option("--fps", o.fps,
                  "The video's frame rate (default: real time, the run's time.fps divided by the frames' "
                  "spacing, output.every; 60 without a scene.json).")
      ->check(finiteNumber())
      ->check(CLI::Range(0.1, 1000.0));
  sub->add_flag("-q,--quiet", o.quiet, "No progress, per-frame lines or timing table.");
  return sub;
}

#ifdef EDDY_WITH_RENDER

std::string rendererDescription() { return "OpenGL 4.3 through EGL, PNG"; }

int renderCommand(const RenderOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  int width = 0, height = 0;
  parseSize(o.size, "render: --size", width, height);
  // the run's scene says how to draw it; the flags say otherwise
  const fs::path sceneFile = sceneOfRun(o.input);
  if (sceneFile.empty() && !o.sets.empty())
    throw InputError("render: --set needs the run's scene.json beside '" + o.input + "'");
  SceneDesc scene;
  if (!sceneFile.empty()) scene = loadScene(sceneFile.string(), o.sets);
  RenderDesc look = scene.render;
  if (!o.mode.empty()) look.mode = o.mode;
  if (o.fov > 0) look.fov = Real(o.fov);
  if (!o.environment.empty()) look.environment = o.environment;
  if (!o.colorBy.empty()) look.colorBy = o.colorBy;
  SceneDesc drawn = scene;
  drawn.render = look;
  FrameRenderer renderer(drawn, !sceneFile.empty(), "render");  // reads the environment image
  const RunBodies bodies = sceneFile.empty() ? RunBodies{} : bodiesOfRun(sceneFile, scene, o.quiet);
  const bool surfaces = look.mode == "surface";
  if (!o.video.empty() && fs::path(o.video).extension() != ".mp4")
    throw InputError("render: --video '" + o.video + "': the file must end in .mp4");
  // the outputs are checked before any work: a folder that cannot take files fails now, not after drawing
  const fs::path runFolder = fs::is_directory(o.input) ? fs::path(o.input) : fs::path(o.input).parent_path();
  const std::string out = o.out.empty() ? (runFolder / "render").string() : o.out;
  {
    std::error_code ec;
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
      throw InputError("render: --out '" + out + "' is a file, not a folder");
    const fs::path base = existingAncestor(out);
    if (!fs::is_directory(base, ec) || !canWriteIn(base))
      throw InputError("render: --out '" + out + "': no file can be written in '" + base.string() + "'");
    if (!o.video.empty()) {
      const fs::path folder =
          fs::path(o.video).parent_path().empty() ? fs::path(".") : fs::path(o.video).parent_path();
      if (!fs::is_directory(folder, ec))
        throw InputError("render: --video '" + o.video + "': no folder '" + folder.string() + "'");
      if (!canWriteIn(folder))
        throw InputError("render: --video '" + o.video + "': no file can be written in '" + folder.string() +
                         "'");
      if (fs::is_directory(o.video, ec)) throw InputError("render: --video '" + o.video + "' is a folder");
    }
  }
  const std::vector<Frame> frames = listFrames(o.input, surfaces);
  const double radius = surfaces ? 0 : (o.radius > 0 ? o.radius : radiusOfRun(o.input));
  // in surface mode the run's particles beside its surfaces give the MPM scenes' sand, snow and jelly
  const double solidRadius = surfaces && !sceneFile.empty() ? 0.5 * double(scene.fluid.spacing) : radius;
  // every frame is read and checked before anything is written; the fastest particle sets the colour map
  auto t0 = Clock::now();
  // the check pass keeps only the box and the fastest speed: a long run's frames need not fit in memory
  double fastest = 0, densest = 0, lastId = 0;
  Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
  const bool particleMode = look.mode == "particles";
  for (const Frame& f : frames) {
    const ParticleFrame frame =
        surfaces ? ParticleFrame{loadTriangleMesh(f.path).vertices, {}} : readParticleFrame(f.path);
    if (surfaces && !sceneFile.empty() && f.index >= 0) {  // the particles beside, read while drawing
      const std::string beside = particlesBeside(f);
      if (!beside.empty()) (void)readParticleFrame(beside);
    }
    for (const Vec3& v : frame.velocity) fastest = std::max(fastest, double(length(v)));
    for (float d : frame.density) densest = std::max(densest, double(d));
    for (std::uint32_t id : frame.id) lastId = std::max(lastId, double(id));
    for (const Vec3& x : frame.position) lo = cwiseMin(lo, x), hi = cwiseMax(hi, x);
    const bool missing = (look.colorBy == "density" && frame.density.size() != frame.position.size()) ||
                         (look.colorBy == "id" && frame.id.size() != frame.position.size());
    if (particleMode && missing)
      throw InputError(
          "render: coloured by " + look.colorBy + " (--color-by, render.color_by), but frame '" + f.path +
          "' has no '" + look.colorBy +
          "' per particle (the PLY frames of `eddy run` have it; allowed here: speed, material)");
  }
  if (!(lo.x <= hi.x))
    throw InputError("render: the " + std::string(surfaces ? "surfaces" : "particle frames") + " in '" +
                     o.input + "' are all empty");
  const double checkMs = since(t0);
  double readMs = 0;

  // the camera frames every frame: their common box
  const auto flag = [](const std::vector<double>& v, const char* name) {
    return v.empty() ? std::optional<Vec3>() : std::optional<Vec3>(vec3Of(v, name));
  };
  const std::optional<Vec3> target = flag(o.target, "--target"), position = flag(o.camera, "--camera");
  FrameLook frameLook;
  frameLook.width = width;
  frameLook.height = height;
  frameLook.radius = radius;
  frameLook.solidRadius = solidRadius;
  frameLook.camera =
      renderCamera(look, lo, hi, float(radius), float(width) / float(height), "render", position, target);
  frameLook.speedTop = o.speedTop > 0 ? o.speedTop : std::max(fastest, 1e-6);
  frameLook.densest = densest;
  frameLook.lastId = lastId;
  frameLook.colourBar = !(look.colorBy == "speed" && fastest == 0);
  renderer.start(frameLook);  // the OpenGL context, and the scenery's meshes read
  const bool ellipsoids = look.mode == "ssfr" && look.ellipsoids;
  const std::string unit = renderer.unit();

  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out) || !canWriteIn(out))
    throw InputError("render: --out '" + out + "' cannot be created as a folder" +
                     (ec ? ": " + ec.message() : ""));
  if (!o.quiet) {
    std::printf("eddy render: %zu frame(s) of %s, %dx%d, %s", frames.size(), look.mode.c_str(), width, height,
                renderer.device().c_str());
    if (particleMode && look.colorBy != "material")
      std::printf(", coloured by %s from %.4g to %.4g%s%s", look.colorBy.c_str(), renderer.valueLow(),
                  renderer.valueTop(), unit.empty() ? "" : " ", unit.c_str());
    if (particleMode && look.colorBy == "material") std::printf(", coloured by material");
    if (ellipsoids) std::printf(", ellipsoids");
    std::printf("\n");
  }
  std::unique_ptr<VideoWriter> video;
  if (!o.video.empty() && ffmpegInstalled()) {
    // real time: frames written every n-th simulated frame play n times as long each
    const double fps =
        o.fps > 0 ? o.fps : (sceneFile.empty() ? 60.0 : double(scene.time.fps)) / frameSpacing(frames);
    if (!o.quiet) std::printf("  video: %.4g frames per second\n", fps);
    video = std::make_unique<VideoWriter>(o.video, width, height, fps);
  } else if (!o.video.empty()) {
    std::printf("eddy render: no ffmpeg on this machine, so no %s (PNGs only; install ffmpeg for videos)\n",
                o.video.c_str());
  }
  ProgressReporter progress(int(frames.size()), !o.quiet && isatty(fileno(stderr)),
                            o.quiet ? nullptr : stderr);
  double drawMs = 0, writeMs = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    t0 = Clock::now();
    const TriangleMesh mesh = surfaces ? loadTriangleMesh(frames[i].path) : TriangleMesh{};
    ParticleFrame particles = surfaces ? ParticleFrame{} : readParticleFrame(frames[i].path);
    if (surfaces && !sceneFile.empty() && frames[i].index >= 0) {
      const std::string beside = particlesBeside(frames[i]);
      if (!beside.empty()) particles = readParticleFrame(beside);
    }
    readMs += since(t0);
    t0 = Clock::now();
    const double time = double(std::max(frames[i].index, 0LL)) / double(scene.time.fps);
    if (!bodies.columns.empty()) renderer.setBodyPoses(bodyPosesAt(bodies, time));
    const Picture image =
        surfaces ? renderer.drawSurface(mesh, particles, time) : renderer.drawParticles(particles, time);
    drawMs += since(t0);
    t0 = Clock::now();
    const std::string name = "frame_" + frames[i].number + ".png";
    writePng((fs::path(out) / name).string(), image);
    if (video) video->add(image);
    writeMs += since(t0);
    progress.update(int(i + 1), name);
  }
  progress.finish();
  if (video) {
    video->finish();
    if (!o.quiet) std::printf("  video: %s\n", o.video.c_str());
  }
  if (!o.quiet) {
    const double n = double(frames.size());
    std::printf("  phase        total ms   ms/frame\n");
    std::printf(
        "  check      %10.1f %10.2f\n  read       %10.1f %10.2f\n  draw       %10.1f %10.2f\n"
        "  write PNG  %10.1f %10.2f\n",
        checkMs, checkMs / n, readMs, readMs / n, drawMs, drawMs / n, writeMs, writeMs / n);
  }
  return 0;
}

#else

std::string rendererDescription() {
  return "not built (install libegl-dev, libopengl-dev, libgl-dev and libpng-dev: bash scripts/setup.sh)";
}

int renderCommand(const RenderOptions&) {
  throw InputError("render: this build of eddy has no renderer (" + rendererDescription() + ")");
}

#endif

}  // namespace eddy::app
