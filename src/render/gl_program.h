// A linked GLSL program from vertex and fragment sources, or from one compute shader, compiled into the
// binary; compile and link errors
// come back as RuntimeFailure with the driver's log.
#pragma once

#include <string>

namespace eddy::render {

class GlProgram {
 public:
  GlProgram(const char* name, const std::string& vertex, const std::string& fragment);
  // a compute program
  GlProgram(const char* name, const std::string& compute);
  ~GlProgram();
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  unsigned id() const { return id_; }
  int uniform(const char* name) const;

 private:
  void link(const char* name, unsigned first, unsigned second);
  unsigned id_ = 0;
};

}  // namespace eddy::render
