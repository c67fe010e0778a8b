// Progress output: a redrawn bar on a terminal, sparse plain lines in logs.
#include <eddy/output.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace eddy {

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// 28160 -> "28,160"
std::string grouped(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string rateText(double perSecond, bool groupDigits) {
  if (!std::isfinite(perSecond) || perSecond < 0) return "?";
  // slow runs (big scenes on the CPU) would otherwise show "0"
  if (perSecond < 100) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", perSecond);
    return buf;
  }
  long long r = std::llround(perSecond);
  return groupDigits ? grouped(r) : std::to_string(r);
}

std::string humanDuration(double s) {
  long long t = std::llround(s);
  char buf[64];
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%lld s", t);
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%lld min %02lld s", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld h %02lld min", t / 3600, (t / 60) % 60);
  return buf;
}

}  // namespace

ProgressReporter::ProgressReporter(int totalFrames, bool terminal, std::FILE* stream)
    : totalFrames_(totalFrames), terminal_(terminal), stream_(stream), startSeconds_(nowSeconds()) {}

void ProgressReporter::update(const FrameStats& s, double substepsPerSecond) {
  if (!stream_) return;
  char bar[160], line[160];
  std::snprintf(bar, sizeof bar, "t=%.3f s  %s particles  %s substeps/s", s.time,
                grouped(s.particles).c_str(), rateText(substepsPerSecond, true).c_str());
  std::snprintf(line, sizeof line, "t=%.3f s particles=%lld substeps/s=%s", s.time,
                static_cast<long long>(s.particles), rateText(substepsPerSecond, false).c_str());
  show(s.frame, bar, line);
}

void ProgressReporter::update(int frame, const std::string& detail) { show(frame, detail, detail); }

void ProgressReporter::show(int frame, const std::string& barDetail, const std::string& lineDetail) {
  if (!stream_) return;
  const double now = nowSeconds();
  const bool last = frame >= totalFrames_;
  int percent = totalFrames_ > 0 ? int(100.0 * frame / totalFrames_) : 100;
  percent = std::clamp(percent, 0, 100);

  // wall time per finished frame so far, extrapolated over the frames left
  const double elapsed = now - startSeconds_;
  double eta = -1;
  if (last)
    eta = 0;
  else if (frame > 0)
    eta = elapsed / frame * (totalFrames_ - frame);

  if (terminal_) {
    // redraws are cheap but not free: cap them at about 10 per second
    if (!last && percent == lastPercent_ && now - lastPrintSeconds_ < 0.1) return;
    constexpr int kWidth = 20;
    const int filled = percent * kWidth / 100;
    std::string bar(kWidth + 2, '-');
    bar.front() = '[', bar.back() = ']';
    std::fill_n(bar.begin() + 1, filled, '#');
    // \033[K clears what a longer previous line left on the right
    std::fprintf(stream_, "\r%s %3d%% frame %d/%d  %s  ETA %s\033[K", bar.c_str(), percent, frame,
                 totalFrames_, barDetail.c_str(), eta < 0 ? "?" : humanDuration(eta).c_str());
  } else {
    // a new 10% bucket, 10 s of silence, or the last frame
    const bool newBucket = lastPercent_ < 0 || percent / 10 > lastPercent_ / 10;
    if (!last && !newBucket && now - lastPrintSeconds_ < 10.0) return;
    char etaText[32] = "?";
    if (eta >= 0) std::snprintf(etaText, sizeof etaText, "%llds", std::llround(eta));
    std::fprintf(stream_, "frame %d/%d (%d%%) %s eta=%s\n", frame, totalFrames_, percent, lineDetail.c_str(),
                 etaText);
  }
  std::fflush(stream_);
  lastPercent_ = percent;
  lastPrintSeconds_ = now;
}

void ProgressReporter::finish() {
  if (!stream_) return;
  // leave the cursor below the bar; plain lines already end in a newline
  if (terminal_ && lastPercent_ >= 0) {
    std::fputc('\n', stream_);
    std::fflush(stream_);
    lastPercent_ = -1;  // a second finish() adds no blank line
  }
}

}  // namespace eddy
