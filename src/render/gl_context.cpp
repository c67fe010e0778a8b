#include "render/gl_context.h"

#include <eddy/error.h>

#include <string>
#include <vector>

#include "render/gl.h"

namespace eddy::render {

namespace {

EGLContext createContext(EGLDisplay display) {
  if (!eglBindAPI(EGL_OPENGL_API)) return EGL_NO_CONTEXT;
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  eglChooseConfig(display, configAttributes, &config, 1, &configs);
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      4,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  // no surface is ever bound: every image is drawn into a framebuffer object
  return eglCreateContext(display, configs > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                          contextAttributes);
}

// the first EGL device that initialises (NVIDIA's driver lists its GPUs here)
EGLDisplay deviceDisplay(PFNEGLGETPLATFORMDISPLAYEXTPROC platformDisplay) {
  auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (!queryDevices) return EGL_NO_DISPLAY;
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!queryDevices(16, devices, &count)) return EGL_NO_DISPLAY;
  for (EGLint i = 0; i < count; ++i) {
    EGLDisplay d = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
      // Mesa lists a software device too; prefer it only where nothing else works (surfaceless below)
      const char* vendor = eglQueryString(d, EGL_VENDOR);
      if (vendor && std::string(vendor).find("Mesa") == std::string::npos) return d;
      eglTerminate(d);
    }
  }
  return EGL_NO_DISPLAY;
}

}  // namespace

HeadlessGl::HeadlessGl() {
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto platformDisplay =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!clientExtensions || !platformDisplay)
    throw InputError(
        "render: no usable EGL (libEGL without platform displays); install libegl1 and a driver: NVIDIA's, "
        "or Mesa's libegl-mesa0 and libgl1-mesa-dri");
  const std::string extensions = clientExtensions;
  std::vector<std::string> tried;
  EGLDisplay display = EGL_NO_DISPLAY;
  if (extensions.find("EGL_EXT_platform_device") != std::string::npos) {
    display = deviceDisplay(platformDisplay);
    platform_ = "device";
    tried.push_back("EGL device");
  }
  if (display == EGL_NO_DISPLAY && extensions.find("EGL_MESA_platform_surfaceless") != std::string::npos) {
    display = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (display != EGL_NO_DISPLAY && !eglInitialize(display, &major, &minor)) display = EGL_NO_DISPLAY;
    platform_ = "surfaceless";
    tried.push_back("Mesa surfaceless");
  }
  if (display == EGL_NO_DISPLAY) {
    std::string list;
    for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
    throw InputError("render: no EGL display (tried: " + (list.empty() ? std::string("none offered") : list) +
                     "); install NVIDIA's driver, or Mesa's libegl-mesa0 and libgl1-mesa-dri");
  }
  EGLContext context = createContext(display);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglTerminate(display);
    throw InputError("render: the EGL " + platform_ + " display gives no OpenGL 4.3 core context");
  }
  display_ = display;
  context_ = context;
  const GLubyte* renderer = glGetString(GL_RENDERER);
  renderer_ = renderer ? reinterpret_cast<const char*>(renderer) : "unknown";
}

HeadlessGl::~HeadlessGl() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace eddy::render
