// The viewer's Dear ImGui panel: what runs and how fast, the controls, the solver's main parameters, the
// nozzles, and the last frame's time per phase.
#include <eddy/error.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <stdexcept>

#include "viewer/viewer.h"

namespace eddy::viewer {

void Viewer::drawPanel(const ViewerInput& in) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Once);
  ImGui::SetNextWindowSize(ImVec2(330, 0), ImGuiCond_Once);
  ImGui::Begin("eddy", nullptr, ImGuiWindowFlags_AlwaysAutoResize);

  ImGui::Text("%s: %s, %s", scene_.name.c_str(), scene_.solver.c_str(), device_.c_str());
  ImGui::Text("%lld particles, frame %d, t = %.3f s", static_cast<long long>(stats_.particles), sim_->frame(),
              sim_->time());
  ImGui::Text("%.0f fps   simulation %.2f ms   picture %.2f ms",
              in.frameSeconds > 0 ? 1.0 / in.frameSeconds : 0.0, timings_.simulation, timings_.picture);
  ImGui::Text("max speed %.2f m/s   density error %.2f %%", stats_.maxSpeed, 100 * stats_.maxDensityError);
  if (!failure_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1));
    ImGui::TextWrapped("stopped: %s (R starts again)", failure_.c_str());
    ImGui::PopStyleColor();
  }

  if (ImGui::Button(paused_ ? "run" : "pause")) paused_ = !paused_;
  ImGui::SameLine();
  if (ImGui::Button("step")) paused_ = true, stepOnce_ = true;
  ImGui::SameLine();
  if (ImGui::Button("reset")) failure_.clear(), rebuild(false);
  float speed = float(speed_);
  if (ImGui::SliderFloat("speed", &speed, 0.1f, 4.0f, "%.2f x")) speed_ = speed;
  int mode = int(mode_);
  ImGui::Combo("render", &mode, "particles\0screen-space fluid\0surface\0");
  mode_ = ViewMode(mode);
  ImGui::Checkbox("floor and colliders", &showScenery_);

  // an edited parameter counts once the slider is let go: each change rebuilds the simulation
  bool changed = false;
  if (ImGui::CollapsingHeader("solver", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (scene_.solver == "pbf") {
      ImGui::SliderInt("iterations", &scene_.pbf.iterations, 1, 20);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("viscosity (xsph)", &scene_.pbf.xsph, 0, 0.3f);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("vorticity", &scene_.pbf.vorticity, 0, 0.5f);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("s_corr k", &scene_.pbf.scorrK, 0, 0.3f);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
    } else if (scene_.solver == "wcsph") {
      ImGui::SliderFloat("speed of sound", &scene_.wcsph.speedOfSound, 5, 100, "%.0f m/s");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("stiffness (linear)", &scene_.wcsph.stiffness, 100, 10000, "%.0f",
                         ImGuiSliderFlags_Logarithmic);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("viscosity", &scene_.wcsph.viscosity, 0, 1);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
    } else if (scene_.solver == "mpm") {
      ImGui::SliderFloat("bulk modulus", &scene_.mpm.bulkModulus, 1e4f, 1e7f, "%.3g Pa",
                         ImGuiSliderFlags_Logarithmic);
      changed |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::SliderFloat("viscosity", &scene_.mpm.viscosity, 0, 1, "%.3f Pa s");
      changed |= ImGui::IsItemDeactivatedAfterEdit();
    }
  }
  if (changed) {
    try {
      rebuild(true);
    } catch (const std::runtime_error& e) {
      failure_ = e.what();
    }
  }

  if (!nozzleActive_.empty() && ImGui::CollapsingHeader("emitters", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (std::size_t k = 0; k < nozzleActive_.size(); ++k) {
      char label[64];
      std::snprintf(label, sizeof label, "nozzle %zu (key %zu)", k + 1, k + 1);
      bool on = nozzleActive_[k] != 0;
      if (ImGui::Checkbox(label, &on)) {
        nozzleActive_[k] = on;
        sim_->setNozzleActive(k, on);
      }
    }
  }

  if (ImGui::CollapsingHeader("time per phase")) {
    for (int p = 0; p < int(Phase::Count); ++p)
      if (timings_.phases[p] > 0) ImGui::Text("%-22s %7.3f ms", kPhaseNames[p], timings_.phases[p]);
  }
  ImGui::TextDisabled("drag: orbit  right drag: pan  wheel: zoom");
  ImGui::TextDisabled("shift+drag: push  space: pause  N: step  R: reset");
  ImGui::End();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace eddy::viewer
