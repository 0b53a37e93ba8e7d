// test/common/test_common.cuh: the whole test harness in one include.
#pragma once

#include "compare.cuh"
#include "harness.cuh"
#include "random.cuh"
#include "reference.cuh"
#include "types.cuh"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
