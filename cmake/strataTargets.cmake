# Helpers for strata's own tests, benchmarks and examples (not installed).

# Warnings are errors in everything we build: host -Wall -Wextra and nvcc's own warnings.
function(strata_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Werror --Werror=all-warnings>)
endfunction()

# A manifest of every test and example program, one line each: "<label> <tools> <path>", read by
# scripts/gpu-check. <tools> are the compute-sanitizer tools to run on the program, comma-separated,
# from the target property STRATA_SANITIZERS: memcheck, racecheck and synccheck by default; a
# program whose kernels use neither shared memory nor barriers is set to memcheck alone in its
# CMakeLists.txt (racecheck and synccheck would have nothing to check there). A fourth field,
# "per-case:<tools>", marks a program whose target property STRATA_SANITIZE_PER_CASE is set:
# gpu-check sanitizes it one test case per run under those tools (the property's value, a list
# such as "racecheck"; ON for all of the program's tools), and in one run under the others. Each
# run of a program costs a few seconds of start-up, so only a tool whose whole run is long gets
# one run per case.
set_property(GLOBAL PROPERTY STRATA_TEST_MANIFEST "")
set(STRATA_DEFAULT_SANITIZERS memcheck racecheck synccheck)

# Appends <target> to the manifest under <label>.
function(strata_manifest_add target label)
  set_target_properties(${target} PROPERTIES STRATA_SANITIZERS "${STRATA_DEFAULT_SANITIZERS}")
  set_property(GLOBAL APPEND PROPERTY STRATA_TEST_MANIFEST
    "${label} $<JOIN:$<TARGET_PROPERTY:${target},STRATA_SANITIZERS>,$<COMMA>> $<TARGET_FILE:${target}>$<$<BOOL:$<TARGET_PROPERTY:${target},STRATA_SANITIZE_PER_CASE>>: per-case:$<JOIN:$<TARGET_PROPERTY:${target},STRATA_SANITIZE_PER_CASE>,$<COMMA>>>")
endfunction()

# The exit status of a test program or example whose every case skipped (no GPU): CTest reports
# it as SKIPPED. No failure produces it (test/common/main.cpp maps any failure to 1).
set(STRATA_SKIP_RETURN_CODE 77)

# strata_add_test(<name> LABEL <label> SOURCES <files...>)
# One Catch2 program per test file, with strata's main (test/common/main.cpp): 1 on any failure,
# 77 when every case skipped (e.g. no GPU), which CTest reports as SKIPPED.
function(strata_add_test name)
  cmake_parse_arguments(arg "" "LABEL" "SOURCES" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE strata::strata strata_test_common strata_test_main)
  strata_target_warnings(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin/test")
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${STRATA_SKIP_RETURN_CODE} LABELS "${arg_LABEL}")
  strata_manifest_add(${name} ${arg_LABEL})
endfunction()

# strata_add_tests(LABEL <label> <test_x.cu>...): one test program per file, named after it.
function(strata_add_tests)
  cmake_parse_arguments(arg "" "LABEL" "" ${ARGN})
  foreach(source IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(name "${source}" NAME_WE)
    strata_add_test(${name} LABEL ${arg_LABEL} SOURCES ${source})
  endforeach()
endfunction()

# Writes the manifest to <build>/strata-tests.txt once the top-level directory is configured,
# so that it holds the examples too (added after the tests).
function(strata_write_test_manifest)
  cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL strata_write_test_manifest_now)
endfunction()

function(strata_write_test_manifest_now)
  get_property(lines GLOBAL PROPERTY STRATA_TEST_MANIFEST)
  list(JOIN lines "\n" content)
  file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/strata-tests.txt" CONTENT "${content}\n")
endfunction()

# strata_add_example(<name> <source>): built with warnings as errors and run by CTest
# (label "example"); an example exits with 77 when no GPU is present.
function(strata_add_example name source)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE strata::strata)
  strata_target_warnings(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin/examples")
  add_test(NAME example.${name} COMMAND ${name})
  set_tests_properties(example.${name} PROPERTIES SKIP_RETURN_CODE ${STRATA_SKIP_RETURN_CODE} LABELS example)
  strata_manifest_add(${name} example)
endfunction()

# strata_add_benchmark(<name> SOURCES <files...>): Google Benchmark programs that run
# strata and CUB side by side.
function(strata_add_benchmark name)
  cmake_parse_arguments(arg "" "" "SOURCES" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE strata::strata strata_bench_common benchmark::benchmark)
  strata_target_warnings(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin/benchmark")
endfunction()
