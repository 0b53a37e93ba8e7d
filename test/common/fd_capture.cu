// test/common/fd_capture.cu: the out-of-line parts of fd_capture.
#include "fd_capture.cuh"

#include <catch2/catch_test_macros.hpp>

#include <iostream>

#include <unistd.h>

namespace strata_test
{
namespace
{
void flush_all()
{
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}
} // namespace

fd_capture::fd_capture(int fd)
    : fd_(fd)
    , file_(std::tmpfile())
{
  REQUIRE(file_ != nullptr);
  flush_all();
  saved_fd_ = dup(fd_);
  REQUIRE(saved_fd_ >= 0);
  REQUIRE(dup2(fileno(file_), fd_) >= 0);
}

fd_capture::~fd_capture()
{
  restore();
  std::fclose(file_);
}

std::string fd_capture::text()
{
  restore();
  std::string text;
  std::rewind(file_);
  for (int c = std::fgetc(file_); c != EOF; c = std::fgetc(file_))
  {
    text.push_back(static_cast<char>(c));
  }
  return text;
}

void fd_capture::restore()
{
  if (saved_fd_ >= 0)
  {
    flush_all();
    dup2(saved_fd_, fd_);
    close(saved_fd_);
    saved_fd_ = -1;
  }
}
} // namespace strata_test
