# Builds a consumer (CONSUMER_DIR) against strata: from an install prefix (MODE=package, and
# MODE=with_cub, whose consumer also uses CUB), or from the source tree (MODE=subdirectory or
# MODE=fetchcontent). Run with cmake -P; fails on any error.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}"
    -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "package" OR MODE STREQUAL "with_cub")
  run("${CMAKE_COMMAND}" --install "${STRATA_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  if(NOT EXISTS "${WORK_DIR}/prefix/include/strata/strata.cuh")
    message(FATAL_ERROR "the install did not put strata/strata.cuh under include/")
  endif()
  # Relocatable: move the prefix after installing; find_package must still work.
  file(RENAME "${WORK_DIR}/prefix" "${WORK_DIR}/moved-prefix")
  run("${CMAKE_COMMAND}" ${args} "-DCMAKE_PREFIX_PATH=${WORK_DIR}/moved-prefix" -DSTRATA_CONSUME=package
      "-DSTRATA_EXPECTED_VERSION=${STRATA_VERSION}")
else()
  run("${CMAKE_COMMAND}" ${args} "-DSTRATA_SOURCE_DIR=${STRATA_SOURCE_DIR}" -DSTRATA_CONSUME=${MODE})
endif()
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
# The CUDA runtime is the consumer's choice: with CMake's default (static) the program must not
# also need the shared runtime, which strata::strata used to add.
find_program(READELF readelf)
if(READELF)
  file(GLOB_RECURSE consumer_program "${WORK_DIR}/build/consumer")
  execute_process(COMMAND "${READELF}" -d ${consumer_program} OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf -d ${consumer_program} failed")
  endif()
  if(dynamic MATCHES "libcudart\\.so")
    message(FATAL_ERROR "the consumer needs the shared CUDA runtime besides the static one:\n${dynamic}")
  endif()
endif()
message(STATUS "consumer built with strata as a ${MODE}")
