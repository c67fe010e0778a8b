// End-of-run timing report: a fixed-width table for people, JSON for scripts.
#include <eddy/output.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace eddy {

namespace {

double perSubstep(double ms, std::int64_t substeps) { return substeps > 0 ? ms / double(substeps) : 0.0; }

std::string row(const char* name, double totalMs, double perSubstepMs, const std::string& share) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-24s %14.3f %14.4f %10s\n", name, totalMs, perSubstepMs, share.c_str());
  return buf;
}

std::string percent(double part, double whole) {
  if (whole <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * part / whole);
  return buf;
}

}  // namespace

std::string formatProfileTable(const Profile& profile) {
  const std::int64_t n = profile.substeps;
  std::string out;
  char buf[200];
  std::snprintf(buf, sizeof buf, "  %-24s %14s %14s %10s\n", "phase", "total ms", "ms/substep", "% of step");
  out += buf;
  out += "  " + std::string(24 + 1 + 14 + 1 + 14 + 1 + 10, '-') + "\n";
  for (int i = 0; i < int(Phase::Count); ++i) {
    if (i == int(Phase::Output) || i == int(Phase::Surface)) continue;
    out += row(kPhaseNames[i], profile.totalMs[i], perSubstep(profile.totalMs[i], n),
               percent(profile.totalMs[i], profile.stepMs));
  }
  out += row("step (all phases)", profile.stepMs, perSubstep(profile.stepMs, n),
             profile.stepMs > 0 ? "100.0%" : "-");

  // output and surfaces happen once per frame, outside the step, so they get lines of their own and no
  // share
  for (Phase p : {Phase::Output, Phase::Surface}) {
    const int o = int(p);
    const long long calls = profile.calls[o];
    if (p == Phase::Surface && calls == 0) continue;
    std::snprintf(buf, sizeof buf, "  %-24s %14.3f %14s %10s   (%lld %s, not part of the step)\n",
                  kPhaseNames[o], profile.totalMs[o], "", "", calls, calls == 1 ? "call" : "calls");
    out += buf;
  }

  if (profile.stepMs > 0) {
    std::snprintf(buf, sizeof buf, "  substeps: %lld   substeps/s: %.1f\n", static_cast<long long>(n),
                  double(n) / (profile.stepMs / 1000.0));
  } else {
    std::snprintf(buf, sizeof buf, "  substeps: %lld   substeps/s: -\n", static_cast<long long>(n));
  }
  out += buf;
  return out;
}

std::string profileJson(const Profile& profile, const std::string& backend, const std::string& device,
                        std::int64_t particles) {
  const std::int64_t n = profile.substeps;
  nlohmann::ordered_json j;
  j["backend"] = backend;
  j["device"] = device;
  j["particles"] = particles;
  j["substeps"] = n;
  j["step_ms_total"] = profile.stepMs;
  j["step_ms_per_substep"] = perSubstep(profile.stepMs, n);
  j["substeps_per_second"] = profile.stepMs > 0 ? double(n) / (profile.stepMs / 1000.0) : 0.0;
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (int i = 0; i < int(Phase::Count); ++i) {
    phases[kPhaseKeys[i]] = {{"total_ms", profile.totalMs[i]},
                             {"per_substep_ms", perSubstep(profile.totalMs[i], n)},
                             {"calls", profile.calls[i]}};
  }
  j["phases"] = std::move(phases);
  return j.dump(2) + "\n";
}

}  // namespace eddy
