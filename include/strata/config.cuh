// strata/config.cuh: everything a strata header needs first (version, namespaces, macros, arch).
#pragma once

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>

#include <nv/target>
