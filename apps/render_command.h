// `eddy render`: pictures of a run's particle frames, drawn with OpenGL through EGL (no display needed).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace eddy::app {

struct RenderOptions {
  std::string input;  // a run's folder of particles_NNNNNN.ply frames, or one such file
  std::string out;    // --out: where frame_NNNNNN.png go (default INPUT/render)
  // --mode, --camera, --target, --fov, --environment, --set: over the run's scene.json "render" section
  std::string mode;               // --mode
  std::string size = "1280x720";  // --size WxH
  std::vector<double> camera;     // --camera X,Y,Z
  std::vector<double> target;     // --target X,Y,Z
  double fov = 0;                 // --fov, degrees
  std::string environment;        // --environment FILE.png
  std::vector<std::string> sets;  // --set KEY=VALUE on the run's scene
  double radius = 0;              // --radius, m (default: half the run's fluid.spacing)
  double speedTop = 0;            // --speed-top, m/s (default: the fastest particle of all frames)
  std::string colorBy;            // --color-by: speed, density, id, material (default: render.color_by)
  std::string video;              // --video FILE.mp4: the frames as a video too, where ffmpeg is installed
  double fps = 0;                 // --fps: the video's frame rate (default: the run's time.fps, else 60)
  bool quiet = false;
};

CLI::App* addRenderCommand(CLI::App& app, RenderOptions& opts);

// returns 0; throws InputError for bad input (before anything is written), for main to report
int renderCommand(const RenderOptions& opts);

// "WxH" into width and height; InputError beginning with flag ("render: --size") for anything else
void parseSize(const std::string& text, const std::string& flag, int& width, int& height);

// refuses a number that is not finite (nan, inf, 1e999), for every numeric flag of render and view
CLI::Validator finiteNumber();

// "renderer: OpenGL 4.3 through EGL, PNG" or why it is missing, for `eddy --version`
std::string rendererDescription();

}  // namespace eddy::app
