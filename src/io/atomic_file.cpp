// Atomic file replacement and output-folder checks.
#include <eddy/error.h>
#include <eddy/output.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace eddy {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void failWrite(const std::string& path, const std::string& tmp, int err) {
  // the temp file may or may not exist here; either way nothing should stay behind
  if (!tmp.empty()) std::remove(tmp.c_str());
  throw RuntimeFailure("cannot write '" + path + "': " + std::strerror(err));
}

}  // namespace

void writeFileAtomic(const std::string& path, const std::string& bytes) {
  // same folder as the target so the rename never crosses a file system
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw RuntimeFailure("cannot write '" + path + "': " + std::strerror(errno));

  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    int err = errno ? errno : EIO;
    std::fclose(f);
    failWrite(path, tmp, err);
  }
  if (std::fflush(f) != 0) {
    int err = errno;
    std::fclose(f);
    failWrite(path, tmp, err);
  }
  // fclose reports delayed write errors (disk full on network file systems)
  if (std::fclose(f) != 0) failWrite(path, tmp, errno);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) failWrite(path, tmp, errno);
}

void prepareOutputDir(const std::string& dir) {
  const fs::path root = dir.empty() ? fs::path(".") : fs::path(dir);
  auto fail = [&](const std::string& reason) {
    throw InputError("output folder '" + dir + "' is not writable: " + reason);
  };

  // remember which folders we create, so a failed check can take them away again
  std::vector<fs::path> created;
  std::error_code ec;
  for (fs::path p = root; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p, ec) || ec) break;
    created.push_back(p);
    if (p == p.parent_path()) break;
  }
  auto undo = [&] {
    std::error_code ignored;
    for (const fs::path& p : created) fs::remove(p, ignored);  // deepest first; only removes empty folders
  };

  ec.clear();
  fs::create_directories(root, ec);
  if (ec) {
    undo();
    fail(ec.message());
  }
  if (!fs::is_directory(root, ec)) {
    undo();
    fail("it is not a folder");
  }

  // permission bits do not tell the whole story (read-only mounts, ACLs), so try a real file
  const fs::path probe = root / (".eddy_write_probe." + std::to_string(::getpid()));
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) {
    int err = errno;
    undo();
    fail(std::strerror(err));
  }
  bool ok = std::fputc('x', f) != EOF;
  ok = (std::fclose(f) == 0) && ok;
  int err = errno;
  std::remove(probe.c_str());
  if (!ok) {
    undo();
    fail(std::strerror(err ? err : EIO));
  }
}

}  // namespace eddy
