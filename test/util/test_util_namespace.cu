// Tests of strata/util_namespace.cuh and the macros of util_macro.cuh: the versioned inline ABI
// namespace encodes the strata version and this compilation's architecture list.
#include <strata/config.cuh>
#include <strata/util_type.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <string>
#include <type_traits>

namespace
{
// What the ABI namespace must be called for this compilation, derived independently of the
// macros under test: "SV_<version>_SM_<arch>_<arch>...", arches from __CUDA_ARCH_LIST__.
std::string expected_abi_name()
{
  std::string arches = STRATA_STRINGIFY(__CUDA_ARCH_LIST__);
  for (char& c : arches)
  {
    if (c == ',')
    {
      c = '_';
    }
  }
  arches.erase(std::remove(arches.begin(), arches.end(), ' '), arches.end());
  return "SV_" + std::to_string(STRATA_VERSION) + "_SM_" + arches;
}
} // namespace

TEST_CASE("The ABI namespace encodes the version and the architecture list", "[util][namespace]")
{
  CHECK(std::string(STRATA_STRINGIFY(STRATA_ABI_NAMESPACE)) == expected_abi_name());
  STATIC_REQUIRE(std::is_same_v<strata::NullType, strata::STRATA_ABI_NAMESPACE::NullType>);
}

TEST_CASE("Architecture lists of any length become one identifier", "[util][namespace]")
{
  STATIC_REQUIRE(STRATA_DETAIL_NARGS(1) == 1);
  STATIC_REQUIRE(STRATA_DETAIL_NARGS(1, 2, 3) == 3);
  STATIC_REQUIRE(STRATA_DETAIL_NARGS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) == 16);
  CHECK(std::string(STRATA_STRINGIFY(STRATA_DETAIL_ARCHS(900))) == "_900");
  CHECK(std::string(STRATA_STRINGIFY(STRATA_DETAIL_ARCHS(750, 800, 900, 1000))) == "_750_800_900_1000");
}

TEST_CASE("Version macros agree", "[util][namespace]")
{
  STATIC_REQUIRE(STRATA_MAJOR_VERSION * 100000 + STRATA_MINOR_VERSION * 100 + STRATA_SUBMINOR_VERSION
                 == STRATA_VERSION);
}

TEST_CASE("Kernels are declared with hidden visibility", "[util][namespace]")
{
  const std::string attributes = STRATA_STRINGIFY(STRATA_KERNEL_ATTRIBUTES);
  CHECK(attributes.find("global") != std::string::npos);
  CHECK(attributes.find("visibility(\"hidden\")") != std::string::npos);
}

TEST_CASE("CUB's namespace macro and CCCL's configuration macros are there after config.cuh", "[util][namespace]")
{
  // STRATA_NS_QUALIFIER names the namespace as CUB_NS_QUALIFIER names cub's.
  STATIC_REQUIRE(std::is_same_v<STRATA_NS_QUALIFIER::NullType, strata::NullType>);
  CHECK(std::string(STRATA_STRINGIFY(STRATA_NS_QUALIFIER)) == "::strata");
  // Code written for CUB tests the compiler with CCCL's macros after including the config header.
#if !defined(_CCCL_COMPILER) || !defined(CCCL_VERSION)
  FAIL("config.cuh does not make CCCL's configuration macros available");
#else
  STATIC_REQUIRE(_CCCL_COMPILER(NVHPC) == 0);
  STATIC_REQUIRE(CCCL_VERSION >= 2008000);
#endif
}
