#!/usr/bin/env bash
# test/selftest/gpu_check_selftest.sh: scripts/gpu-check on a fake tree (test/selftest/fake: tiny
# Catch2 programs with strata's main) with a fake nvidia-smi and compute-sanitizer
# (test/selftest/fakebin), on a machine without a GPU. Each scenario is a state the check must see
# for what it is: a clean suite passes, and each way of being broken fails with its own message.
# Runs in CTest (label selftest); prints each scenario's verdict and, for a wrong one, its log.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/scripts" "$tree/test/common"
cp -r "$repo/test/selftest/fake/." "$tree/"
for s in gpu-check gpu-check-evidence gpu-check-record gpu-program-inputs gpu-source-stamp bench-summary; do
  cp "$repo/scripts/$s" "$tree/scripts/"
done
cp "$repo/test/common/main.cpp" "$repo/test/common/exit_code.hpp" "$tree/test/common/"
[ -d "$repo/.deps" ] && ln -s "$repo/.deps" "$tree/.deps"
command -v nvcc > /dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
export PATH="$repo/test/selftest/fakebin:$PATH" STRATA_SANITIZER_JOBS=2 STRATA_CTEST_JOBS=2
unset FAKE_SANITIZER_ERRORS
good="fake_good fake_per_case_good fake_api fake_example"
wrong=0

conf() {
  printf "api_error_cases='%s'\napi_error_programs=''\nsanitizer_skips=''\n" "$1" > "$tree/test/gpu-check.conf"
}

# scenario NAME PASSED|FAILED "PATTERN" ... -- GPU-CHECK ARGS: gpu-check's verdict must be the
# expected one, and its output must hold every pattern (fixed strings).
scenario() {
  local name=$1 expect=$2
  shift 2
  local patterns=()
  while [ "$1" != -- ]; do patterns+=("$1"); shift; done
  shift
  local log="$work/$name.log"
  (cd "$tree" && OUT="$work/out-$name" scripts/gpu-check --no-bench "$@") > "$log" 2>&1
  local problems=()
  grep -qx "gpu-check: $expect.*" "$log" || problems+=("the verdict is not $expect")
  for p in "${patterns[@]}"; do grep -qF -- "$p" "$log" || problems+=("no line holds: $p"); done
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok: $name ($expect)"
  else
    wrong=$((wrong + 1))
    echo "WRONG: $name: $(printf '%s; ' "${problems[@]}")"
    sed 's/^/    /' "$log" | tail -n 60
  fi
}

# A call that runs out of time leaves its jobs to the next: it fails, naming them.
export FAKE_PROGRAMS="$good"
conf 'fake_api|api: provokes an API error'
scenario time-limit FAILED "18 jobs not started before the time limit" -- --stop-after 0
# A clean suite passes, records its sanitizer runs, and knows which kernels they reach.
scenario clean PASSED "ctest: 4 tests, 4 passed, 0 failed" "reach: 2 kernels, 0 problems" \
  "18 jobs, 0 recorded clean" "18 of 18 run, 0 errors, 0 bad" --
# Unchanged, nothing runs again; --full runs everything; a changed header reruns its program only.
scenario recorded PASSED "18 jobs, 18 recorded clean" "0 of 0 run" --
# A --full call that builds runs everything; --full --no-build calls on that folder continue its
# sequence (a call cut short by --stop-after leaves the rest to them), and count only its runs.
scenario full-cut-short FAILED "18 jobs, 0 run clean earlier in this --full sequence" \
  "18 jobs not started before the time limit" -- --full --stop-after 0
scenario full-continued PASSED "18 jobs, 0 run clean earlier in this --full sequence" "18 of 18 run" \
  "launch logs of 0 programs taken" -- --full --no-build
scenario full-done PASSED "18 jobs, 18 run clean earlier in this --full sequence" "0 of 0 run" -- --full --no-build
# The sequence goes on on another machine (a new build folder), from the files a call left in $OUT.
export STRATA_GPU_BUILD=build-moved
scenario full-elsewhere PASSED "18 jobs, 18 run clean earlier in this --full sequence" "0 of 0 run" \
  "launch logs of 0 programs taken" -- --full --continue "$work/out-full-continued/full-sequence"
unset STRATA_GPU_BUILD
scenario full PASSED "18 jobs, 0 run clean earlier in this --full sequence" "18 of 18 run" \
  "launch logs of 4 programs taken" -- --full
# On a machine of several GPUs each run gets one of them, in turn by parallel slot.
export FAKE_GPU_COUNT=2
scenario two-gpus PASSED "gpus: the sanitizer runs spread over 2 GPUs (0 1)" "18 of 18 run, 0 errors" -- --full
unset FAKE_GPU_COUNT
echo "// changed" >> "$tree/include/strata/fake_good.hpp"
scenario one-program-changed PASSED "18 jobs, 15 recorded clean" "3 of 3 run" "launch logs of 1 programs taken" --
# A sequence that goes on on another machine after a change: that machine's tree holds the
# committed records, which know neither the changed program's launches nor its runs; the
# sequence's files do, and they count (then a call without --full finds every job recorded).
cp "$tree/test/sanitizer-reach.txt" "$work/reach-committed"
cp "$tree/test/sanitizer-record.txt" "$work/record-committed"
echo "// changed again" >> "$tree/include/strata/fake_good.hpp"
export STRATA_GPU_BUILD=build-machine-1
scenario sequence-machine-1 PASSED "18 of 18 run" "launch logs of 4 programs taken" -- --full
cp "$work/reach-committed" "$tree/test/sanitizer-reach.txt"
cp "$work/record-committed" "$tree/test/sanitizer-record.txt"
export STRATA_GPU_BUILD=build-machine-2
scenario sequence-machine-2 PASSED "18 jobs, 18 run clean earlier in this --full sequence" \
  "launch logs of 0 programs taken" "reach: 2 kernels, 0 problems" -- \
  --full --continue "$work/out-sequence-machine-1/full-sequence"
scenario sequence-recorded PASSED "18 jobs, 18 recorded clean" "0 of 0 run" --
unset STRATA_GPU_BUILD

# False-green path 1: a skipped case in a per-case program.
export FAKE_PROGRAMS="$good fake_skip"
scenario skipped-case FAILED "fake_skip: test case skipped: skip: skips" "memcheck fake_skip [skip: skips] api" --
# False-green path 2: exactly four failed assertions (strata's main exits with 1; Catch2's own
# main with the number of failures in older releases, 4 here, its "all skipped" code).
export FAKE_PROGRAMS="$good fake_four_failures fake_four_failures_catch2main"
scenario four-failures FAILED "fake_four_failures: FAILED" "fake_four_failures_catch2main: FAILED" \
  "memcheck fake_four_failures api: " "test failed (rc 1)" "memcheck fake_four_failures_catch2main api: " \
  "Catch2 reports failures" --
# False-green path 3: an api_error_cases entry that names no test case, or no program.
export FAKE_PROGRAMS="$good"
conf 'fake_api|api: provokes an API error
fake_api|api: no such case
fake_gone|api: provokes an API error'
scenario stale-api-list FAILED 'api_error_cases: fake_api has no test case named "api: no such case"' \
  "api_error_cases: fake_gone is not a program of the manifest" --
conf 'fake_api|api: provokes an API error'
# A sanitizer error.
export FAKE_PROGRAMS="$good fake_sanitizer_error" FAKE_SANITIZER_ERRORS=fake_sanitizer_error
scenario sanitizer-error FAILED "racecheck fake_sanitizer_error api: " "sanitizer errors" --
unset FAKE_SANITIZER_ERRORS
# A program split case by case under racecheck alone: one run each under memcheck and synccheck,
# one per case under racecheck (4 jobs where all tools split would make 6).
export FAKE_PROGRAMS="$good fake_per_tool"
scenario per-tool PASSED "22 jobs, 18 recorded clean" "4 of 4 run, 0 errors" --
# A kernel that no sanitizer run reaches.
export FAKE_PROGRAMS="$good"
cp "$tree/include/strata/fake_kernels.cuh" "$work/kernels.cuh"
printf 'template <typename T>\nSTRATA_KERNEL_ATTRIBUTES void FakeUnreachedKernel(T*);\n' >> "$tree/include/strata/fake_kernels.cuh"
scenario unreached-kernel FAILED "kernel FakeUnreachedKernel is reached by no memcheck run" --
cp "$work/kernels.cuh" "$tree/include/strata/fake_kernels.cuh"

# False-green path 4: --no-build on a build folder of other flags. A folder built by --build-only
# with gpu-check's flags serves; one built in Debug, or from other sources, does not.
export STRATA_GPU_BUILD=build-elsewhere
scenario build-only PASSED "build: ok" -- --build-only
scenario no-build PASSED "build: none (--no-build" "18 jobs, 18 recorded clean" -- --no-build
(cd "$tree" && cmake -S . -B build-debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$tree/.deps/usr" &&
   cmake --build build-debug && scripts/gpu-source-stamp build-debug > build-debug/strata-source.txt &&
   scripts/gpu-program-inputs build-debug > build-debug/strata-inputs.txt) > "$work/debug-build.log" 2>&1 ||
  { wrong=$((wrong + 1)); echo "WRONG: the Debug build folder could not be made"; tail -n 30 "$work/debug-build.log"; }
export STRATA_GPU_BUILD=build-debug
scenario other-flags FAILED "built with other flags or compilers" -- --no-build
export STRATA_GPU_BUILD=build-elsewhere
echo "// changed after the build" >> "$tree/include/strata/fake_good.hpp"
scenario other-sources FAILED "does not name this tree and toolkit" -- --no-build
unset STRATA_GPU_BUILD

if [ $wrong -eq 0 ]; then
  echo "gpu-check self-test: every scenario gave the expected verdict"
else
  echo "gpu-check self-test: $wrong scenarios gave a wrong verdict"
fi
[ $wrong -eq 0 ]
