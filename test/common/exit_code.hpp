// test/common/exit_code.hpp: the exit status of a test program from the counts of its run
// (test/common/main.cpp; tested in test/util/test_host_only.cpp).
#pragma once

#include <cstdint>

namespace strata_test
{
//! Exit status of a test program when every test case was skipped (CTest's SKIP_RETURN_CODE).
inline constexpr int skipped_exit_code = 77;

//! What a test run counted.
struct run_counts
{
  std::uint64_t test_cases;        //!< test cases that ran or were skipped
  std::uint64_t failed_cases;      //!< test cases with a failure
  std::uint64_t skipped_cases;     //!< test cases that skipped
  std::uint64_t failed_assertions; //!< failed assertions (Catch2's own exit status, up to 255)
};

//! 1 on any failure, whatever the count (never 0, 2, 4 or 77); 77 when every test case skipped;
//! otherwise Catch2's own status (0, or 2 when no test case matched the filter).
constexpr int exit_code(int catch2_status, const run_counts& counts)
{
  if (counts.failed_cases > 0 || counts.failed_assertions > 0)
  {
    return 1;
  }
  if (counts.test_cases > 0 && counts.skipped_cases == counts.test_cases)
  {
    return skipped_exit_code;
  }
  return catch2_status;
}
} // namespace strata_test
