// OpenGL 4.3 core and EGL, the only place that includes them: the GL entry points come straight from
// GLVND's libOpenGL, so no loader is needed.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
