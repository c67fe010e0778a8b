// Writes files on a second thread while the simulation goes on: one job in flight at a time. submit()
// first waits for the job before it (so a job may use a buffer the caller refills only after wait()), and a
// job's failure (a full disk, a missing folder) is thrown by the next wait() or submit() on the caller's
// thread, with its own type and message. The destructor waits without throwing: a run that stops on an
// error still finishes the file it was writing (each file is written atomically, so none is partial).
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <utility>

namespace eddy::app {

class BackgroundWriter {
 public:
  BackgroundWriter() = default;
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;
  ~BackgroundWriter() {
    if (thread_.joinable()) thread_.join();
  }

  void submit(std::function<void()> job) {
    wait();
    thread_ = std::thread([this, job = std::move(job)] {
      const auto t0 = Clock::now();
      try {
        job();
      } catch (...) {
        error_ = std::current_exception();
      }
      busy_ += seconds(t0);
    });
  }

  // waits for the job in flight and throws its failure, if any
  void wait() {
    if (thread_.joinable()) {
      const auto t0 = Clock::now();
      thread_.join();
      waited_ += seconds(t0);
    }
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  // seconds the jobs took on the writer thread, and seconds the caller waited for them (after wait())
  double busySeconds() const { return busy_; }
  double waitedSeconds() const { return waited_; }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }

  std::thread thread_;
  std::exception_ptr error_;  // written by the job, read after the join
  double busy_ = 0, waited_ = 0;
};

}  // namespace eddy::app
