// test/common/fd_capture.cuh: captures what the process writes to stdout or stderr (by file
// descriptor, so printf, iostreams and the CUDA runtime are all caught) for tests of messages.
#pragma once

#include <cstdio>
#include <string>

namespace strata_test
{
//! Captures file descriptor `fd` (1 or 2) from construction until text() or destruction.
//! (Defined out of line in fd_capture.cu: cudafe++ of CUDA 13.0 hangs on a test file that holds
//! a class with a destructor whose constructor makes Catch2 assertions.)
class fd_capture
{
public:
  explicit fd_capture(int fd);
  fd_capture(const fd_capture&)            = delete;
  fd_capture& operator=(const fd_capture&) = delete;
  ~fd_capture();
  //! Stops capturing and returns everything captured.
  std::string text();

private:
  void restore();
  int fd_;
  std::FILE* file_;
  int saved_fd_ = -1;
};

//! Whether `text` contains `part`.
inline bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}
} // namespace strata_test
