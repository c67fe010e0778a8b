// The viewer without a display: an EGL context (render/gl_context.h) and a framebuffer the size of the
// window it stands in for. ImGui gets its display size and clock from here instead of a window.
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <chrono>

#include "render/gl.h"
#include "render/gl_context.h"
#include "render/offscreen_target.h"
#include "viewer/display.h"

namespace eddy::viewer {

namespace {

class OffscreenDisplay final : public Display {
 public:
  OffscreenDisplay(int width, int height) : target_(width, height) {
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the user's folder
    ImGui::StyleColorsDark();
    ImGui_ImplOpenGL3_Init("#version 430");
    last_ = Clock::now();
  }
  ~OffscreenDisplay() override {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  bool open() const override { return true; }
  ViewerInput poll() override {
    ViewerInput in;
    const Clock::time_point now = Clock::now();
    in.frameSeconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(target_.width()), float(target_.height()));
    io.DeltaTime = float(in.frameSeconds > 0 ? in.frameSeconds : 1.0 / 60);
    ImGui_ImplOpenGL3_NewFrame();
    return in;
  }
  unsigned framebuffer() const override { return target_.framebuffer(); }
  int width() const override { return target_.width(); }
  int height() const override { return target_.height(); }
  render::Image screenshot() override {
    return render::readFramebuffer(target_.framebuffer(), target_.width(), target_.height());
  }
  void present() override { glFinish(); }
  std::string description() const override {
    return gl_.renderer() + ", EGL " + gl_.platform() + ", offscreen";
  }

 private:
  using Clock = std::chrono::steady_clock;
  render::HeadlessGl gl_;  // first: the target needs the context
  render::OffscreenTarget target_;
  Clock::time_point last_;
};

}  // namespace

std::unique_ptr<Display> openOffscreen(int width, int height) {
  return std::make_unique<OffscreenDisplay>(width, height);
}

}  // namespace eddy::viewer
