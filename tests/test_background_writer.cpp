// The writer thread of `eddy run`: jobs run one at a time in the order given, a job's failure reaches the
// caller's thread at the next wait with its own type and message, and the caller's waits are timed.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../apps/background_writer.h"

namespace eddy::app {
namespace {

TEST(BackgroundWriter, JobsRunInOrderOneAtATime) {
  std::vector<int> done;
  BackgroundWriter writer;
  for (int k = 0; k < 5; ++k)
    writer.submit([&done, k] {
      // a job that reads what the one before it wrote: only in order, one at a time, is the list 0..k-1
      EXPECT_EQ(done.size(), std::size_t(k));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      done.push_back(k);
    });
  writer.wait();
  EXPECT_EQ(done, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_GE(writer.busySeconds(), 0.009);
  // each submit waited for the 2 ms job before it
  EXPECT_GE(writer.waitedSeconds(), 0.005);
}

TEST(BackgroundWriter, AFailureReachesTheCallerOnceWithItsMessage) {
  BackgroundWriter writer;
  writer.submit([] { throw std::runtime_error("out/particles_000003.ply: No space left on device"); });
  try {
    writer.wait();
    FAIL() << "the job's failure was not thrown";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "out/particles_000003.ply: No space left on device");
  }
  writer.wait();  // thrown once
  bool ran = false;
  writer.submit([&ran] { ran = true; });
  writer.wait();
  EXPECT_TRUE(ran);
}

TEST(BackgroundWriter, TheDestructorFinishesTheJobInFlight) {
  bool finished = false;
  {
    BackgroundWriter writer;
    writer.submit([&finished] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      finished = true;
    });
  }
  EXPECT_TRUE(finished);
}

}  // namespace
}  // namespace eddy::app
