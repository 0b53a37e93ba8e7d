// The fake test programs of gpu-check's self-test, one per macro: each is a state of a test program
// that the check must see for what it is.
#include "launches.hpp"

#include <catch2/catch_test_macros.hpp>

#if defined(FAKE_GOOD)
#  include <strata/fake_good.hpp>
// Passes, and launches FakeKernel.
TEST_CASE("good: adds", "[fake]")
{
  fake::launch("FakeKernel");
  CHECK(1 + 1 == fake_good_value());
}
TEST_CASE("good: too slow for a sanitizer", "[fake][slow]")
{
  CHECK(true);
}
#elif defined(FAKE_PER_CASE_GOOD) || defined(FAKE_PER_TOOL)
// Sanitized one case at a time (fake_per_tool: under racecheck only); passes, and launches
// FakeOtherKernel.
TEST_CASE("per case: first", "[fake]")
{
  fake::launch("FakeOtherKernel");
  CHECK(true);
}
TEST_CASE("per case: second, with a comma, and [brackets]", "[fake]")
{
  CHECK(true);
}
#elif defined(FAKE_API)
// One case provokes API errors on purpose (listed in api_error_cases), one does not.
TEST_CASE("api: provokes an API error", "[fake]")
{
  CHECK(true);
}
TEST_CASE("api: plain", "[fake]")
{
  CHECK(true);
}
#elif defined(FAKE_SKIP)
// Sanitized one case at a time; one case skips on a machine that has a GPU.
TEST_CASE("skip: runs", "[fake]")
{
  CHECK(true);
}
TEST_CASE("skip: skips", "[fake]")
{
  SKIP("this case needs more memory than the GPU has");
}
#elif defined(FAKE_FOUR_FAILURES) || defined(FAKE_FOUR_FAILURES_CATCH2MAIN)
// Exactly four failed assertions: Catch2's own main exits with 4, its code for "all skipped".
TEST_CASE("four failures", "[fake]")
{
  for (int i = 0; i < 4; ++i)
  {
    CHECK(i < 0);
  }
}
#elif defined(FAKE_SANITIZER_ERROR)
// Passes, but the (fake) sanitizer finds an error in it.
TEST_CASE("sanitizer error: passes", "[fake]")
{
  CHECK(true);
}
#else
#  error "name the fake program"
#endif
