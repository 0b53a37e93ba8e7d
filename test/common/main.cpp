// test/common/main.cpp: the main() of every test program. Catch2 exits with the number of failed
// assertions, so 4 failures look like its "every test case skipped" code 4, and 2 like "no test
// ran". Here a failure always exits with 1 and "every test case skipped" with 77 (CTest's
// SKIP_RETURN_CODE), a code no failure produces.
#include "exit_code.hpp"

#include <catch2/catch_session.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <optional>

namespace
{
//! The totals of the last test run (none when the session only listed tests or failed to start).
std::optional<strata_test::run_counts> last_run;

class totals_listener : public Catch::EventListenerBase
{
public:
  using Catch::EventListenerBase::EventListenerBase;

  void testRunEnded(Catch::TestRunStats const& stats) override
  {
    const auto& totals = stats.totals;
    last_run = strata_test::run_counts{totals.testCases.total(), totals.testCases.failed, totals.testCases.skipped,
                                       totals.assertions.failed};
  }
};
} // namespace

CATCH_REGISTER_LISTENER(totals_listener)

int main(int argc, char* argv[])
{
  const int catch2_status = Catch::Session().run(argc, argv);
  return last_run ? strata_test::exit_code(catch2_status, *last_run) : catch2_status;
}
