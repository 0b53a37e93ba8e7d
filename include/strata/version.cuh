// strata/version.cuh: the library's version as one number and its parts.
#pragma once

//! strata's version: MAJOR * 100000 + MINOR * 100 + PATCH (no leading zeros: it must not read as octal).
#define STRATA_VERSION 100
#define STRATA_MAJOR_VERSION (STRATA_VERSION / 100000)
#define STRATA_MINOR_VERSION (STRATA_VERSION / 100 % 1000)
#define STRATA_SUBMINOR_VERSION (STRATA_VERSION % 100)
#define STRATA_PATCH_NUMBER 0
