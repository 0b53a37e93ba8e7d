// Tests of strata/util_temporary_storage.cuh: one slot list gives the size (phase one) and the
// carving (phase two), every slot aligned, in bounds and disjoint, with errors for bad input.
#include <strata/util_temporary_storage.cuh>

#include "common/test_common.cuh"

#include <cstdint>
#include <limits>
#include <vector>

namespace
{
struct alignas(64) wide_t
{
  unsigned char bytes[192];
};

std::uintptr_t address(const void* p)
{
  return reinterpret_cast<std::uintptr_t>(p);
}

// [begin, end) of each slot must lie inside the buffer, respect its alignment, and not overlap.
struct span_t
{
  std::uintptr_t begin;
  std::uintptr_t end;
  std::size_t alignment;
};

void check_spans(const std::vector<span_t>& spans, const unsigned char* buffer, std::size_t bytes)
{
  for (std::size_t i = 0; i < spans.size(); ++i)
  {
    INFO("slot " << i);
    CHECK(spans[i].begin % spans[i].alignment == 0);
    CHECK(spans[i].begin >= address(buffer));
    CHECK(spans[i].end <= address(buffer) + bytes);
    for (std::size_t j = 0; j < i; ++j)
    {
      CHECK((spans[j].end <= spans[i].begin || spans[i].end <= spans[j].begin));
    }
  }
}
} // namespace

TEST_CASE("CarveTemporaryStorage: the size query and the carving agree", "[util][temporary_storage]")
{
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  strata_test::generator<std::size_t> gen(seed);
  for (int round = 0; round < 200; ++round)
  {
    const std::size_t n_int  = gen(0, 5000);
    const std::size_t n_char = gen(0, 777);
    const std::size_t n_wide = gen(0, 40);
    const std::size_t align  = std::size_t(1) << gen(0, 10);
    INFO("counts " << n_int << " " << n_char << " " << n_wide << ", alignment " << align);

    int* p_int            = reinterpret_cast<int*>(1);
    unsigned char* p_char = reinterpret_cast<unsigned char*>(1);
    wide_t* p_wide        = reinterpret_cast<wide_t*>(1);
    std::size_t bytes     = 0;
    REQUIRE(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p_int, n_int),
                                                  strata::detail::Slot(p_char, n_char, align),
                                                  strata::detail::Slot(p_wide, n_wide))
            == cudaSuccess);
    CHECK(p_int == nullptr);
    CHECK(p_char == nullptr);
    CHECK(p_wide == nullptr);
    CHECK(bytes >= n_int * sizeof(int) + n_char + n_wide * sizeof(wide_t));

    // The caller's buffer need not be aligned: try every misalignment of a small offset.
    std::vector<unsigned char> storage(bytes + 64);
    for (std::size_t misalign : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(33)})
    {
      unsigned char* buffer = storage.data() + misalign;
      std::size_t available = bytes;
      REQUIRE(strata::detail::CarveTemporaryStorage(buffer, available, strata::detail::Slot(p_int, n_int),
                                                    strata::detail::Slot(p_char, n_char, align),
                                                    strata::detail::Slot(p_wide, n_wide))
              == cudaSuccess);
      CHECK(available == bytes); // the caller's size is not changed in the second phase
      check_spans({{address(p_int), address(p_int + n_int), 256},
                   {address(p_char), address(p_char + n_char), align < 1 ? 1 : align},
                   {address(p_wide), address(p_wide + n_wide), 256}},
                  buffer, bytes);
    }

    std::size_t too_small = bytes - 1;
    CHECK(strata::detail::CarveTemporaryStorage(storage.data(), too_small, strata::detail::Slot(p_int, n_int),
                                                strata::detail::Slot(p_char, n_char, align),
                                                strata::detail::Slot(p_wide, n_wide))
          == cudaErrorInvalidValue);
  }
}

TEST_CASE("CarveTemporaryStorage: empty slots still report at least one byte", "[util][temporary_storage]")
{
  char* p           = nullptr;
  std::size_t bytes = 0;
  REQUIRE(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p, 0, 1)) == cudaSuccess);
  CHECK(bytes == 1);
  REQUIRE(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p, 0)) == cudaSuccess);
  CHECK(bytes >= 1);
}

TEST_CASE("CarveTemporaryStorage: slots honour the alignment of their type", "[util][temporary_storage]")
{
  wide_t* p         = nullptr;
  std::size_t bytes = 0;
  // Asking for less than alignof(T) still gives alignof(T).
  REQUIRE(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p, 3, 8)) == cudaSuccess);
  std::vector<unsigned char> storage(bytes + 1);
  REQUIRE(strata::detail::CarveTemporaryStorage(storage.data() + 1, bytes, strata::detail::Slot(p, 3, 8))
          == cudaSuccess);
  CHECK(address(p) % alignof(wide_t) == 0);
}

TEST_CASE("CarveTemporaryStorage: malformed slots are errors in both phases", "[util][temporary_storage]")
{
  int* p            = nullptr;
  std::size_t bytes = 0;
  CHECK(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p, 10, 48))
        == cudaErrorInvalidValue);
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  CHECK(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(p, huge)) == cudaErrorInvalidValue);
  char* q = nullptr;
  CHECK(strata::detail::CarveTemporaryStorage(nullptr, bytes, strata::detail::Slot(q, huge),
                                              strata::detail::Slot(q, huge))
        == cudaErrorInvalidValue);
  char buffer[16];
  std::size_t available = sizeof(buffer);
  CHECK(strata::detail::CarveTemporaryStorage(buffer, available, strata::detail::Slot(p, huge))
        == cudaErrorInvalidValue);
}
