// The viewer's desktop window: GLFW for the window, its OpenGL 4.3 core context and the mouse and keys;
// Dear ImGui's GLFW backend for the panel's input. The GL entry points the renderers call come from
// GLVND's libOpenGL, which serves a GLX context as it serves an EGL one.
#include <GLFW/glfw3.h>
#include <eddy/error.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <string>

#include "render/gl.h"
#include "render/offscreen_target.h"
#include "viewer/display.h"

namespace eddy::viewer {

namespace {

std::string glfwFailure;  // GLFW reports errors through a callback; the last one goes into messages

void recordGlfwError(int, const char* description) { glfwFailure = description ? description : "unknown"; }

// the keys the viewer reads, as GLFW names them and as ViewerInput::keys names them
constexpr std::array<std::pair<int, int>, 13> kKeys = {{{GLFW_KEY_SPACE, ' '},
                                                        {GLFW_KEY_N, 'N'},
                                                        {GLFW_KEY_R, 'R'},
                                                        {GLFW_KEY_M, 'M'},
                                                        {GLFW_KEY_1, '1'},
                                                        {GLFW_KEY_2, '2'},
                                                        {GLFW_KEY_3, '3'},
                                                        {GLFW_KEY_4, '4'},
                                                        {GLFW_KEY_5, '5'},
                                                        {GLFW_KEY_6, '6'},
                                                        {GLFW_KEY_7, '7'},
                                                        {GLFW_KEY_8, '8'},
                                                        {GLFW_KEY_9, '9'}}};

class Window final : public Display {
 public:
  Window(int width, int height, const std::string& title, bool vsync) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
      throw InputError(
          "view: no display to open a window on (DISPLAY is not set); run it on a desktop, under xvfb-run, "
          "or "
          "with --offscreen");
    glfwSetErrorCallback(recordGlfwError);
    if (!glfwInit())
      throw InputError("view: GLFW cannot open the display '" + std::string(display ? display : "") +
                       "': " + glfwFailure);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!window_) {
      glfwTerminate();
      throw InputError("view: the display gives no OpenGL 4.3 core context for a window (" + glfwFailure +
                       ")");
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(vsync ? 1 : 0);
    glfwSetWindowUserPointer(window_, this);
    // before ImGui's backend, which calls this one after its own
    glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double y) {
      static_cast<Window*>(glfwGetWindowUserPointer(w))->wheel_ += y;
    });
    renderer_ = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the user's folder
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 430");
    last_ = Clock::now();
  }
  ~Window() override {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
  }

  bool open() const override { return !glfwWindowShouldClose(window_); }

  ViewerInput poll() override {
    wheel_ = 0;
    glfwPollEvents();
    if (glfwGetKey(window_, GLFW_KEY_ESCAPE) == GLFW_PRESS) glfwSetWindowShouldClose(window_, GLFW_TRUE);
    ViewerInput in;
    const Clock::time_point now = Clock::now();
    in.frameSeconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    glfwGetFramebufferSize(window_, &width_, &height_);
    int windowWidth = 1, windowHeight = 1;
    glfwGetWindowSize(window_, &windowWidth, &windowHeight);
    double x = 0, y = 0;
    glfwGetCursorPos(window_, &x, &y);
    // the mouse in framebuffer pixels (they differ from window units on a high-density screen)
    in.mouseX = x * width_ / std::max(windowWidth, 1);
    in.mouseY = y * height_ / std::max(windowHeight, 1);
    in.left = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    in.right = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    in.middle = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
    in.shift = glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
               glfwGetKey(window_, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    in.wheel = wheel_;
    for (std::size_t k = 0; k < kKeys.size(); ++k) {
      const bool down = glfwGetKey(window_, kKeys[k].first) == GLFW_PRESS;
      if (down && !keyDown_[k]) in.keys.push_back(kKeys[k].second);
      keyDown_[k] = down;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // what ImGui learnt from the last frame: the panel under the mouse, a text field being typed in
    in.uiHasMouse = ImGui::GetIO().WantCaptureMouse;
    in.uiHasKeyboard = ImGui::GetIO().WantCaptureKeyboard;
    return in;
  }

  unsigned framebuffer() const override { return 0; }
  int width() const override { return width_; }
  int height() const override { return height_; }
  render::Image screenshot() override { return render::readFramebuffer(0, width_, height_); }
  void present() override { glfwSwapBuffers(window_); }
  std::string description() const override { return renderer_ + ", GLFW window"; }

 private:
  using Clock = std::chrono::steady_clock;
  GLFWwindow* window_ = nullptr;
  int width_ = 0, height_ = 0;
  double wheel_ = 0;
  std::array<bool, kKeys.size()> keyDown_{};
  std::string renderer_;
  Clock::time_point last_;
};

}  // namespace

std::unique_ptr<Display> openWindow(int width, int height, const std::string& title, bool vsync) {
  return std::make_unique<Window>(width, height, title, vsync);
}

}  // namespace eddy::viewer
