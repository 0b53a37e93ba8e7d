// What the launch log library would write for the fake programs: they launch nothing for real.
#pragma once
#include <cstdio>
#include <cstdlib>

namespace fake
{
inline void write_log(const char* line)
{
  if (const char* path = std::getenv("STRATA_LAUNCH_LOG"))
  {
    std::FILE* f = std::fopen(path, "a");
    std::fprintf(f, "%s\n", line);
    std::fclose(f);
  }
}

// The library writes this line when it starts.
inline const bool log_started = (write_log("# launch log"), true);

inline void launch(const char* kernel)
{
  char line[256];
  std::snprintf(line, sizeof line, "void strata::fake_v1::detail::%s<int, 4>(int*, long)", kernel);
  write_log(line);
}
} // namespace fake
