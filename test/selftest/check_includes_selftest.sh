#!/usr/bin/env bash
# scripts/check-includes on small fake trees: a tree that keeps the rules must pass, and each way
# of breaking them must fail with its own message.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check="$here/../../scripts/check-includes"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# tree NAME: an include/strata of a thread, a warp and a block header that keep the rules.
tree() {
  local root="$tmp/$1"
  mkdir -p "$root/include/strata/thread" "$root/include/strata/warp" "$root/include/strata/block"
  printf '#include <strata/config.cuh>\n#include <cuda/std/cstdint>\n' > "$root/include/strata/thread/thread_a.cuh"
  printf '#include <strata/thread/thread_a.cuh>\n' > "$root/include/strata/warp/warp_a.cuh"
  printf '#include <strata/warp/warp_a.cuh>\n#include <vector>\n' > "$root/include/strata/block/block_a.cuh"
  printf '#pragma once\n' > "$root/include/strata/config.cuh"
  echo "$root"
}

# expect NAME STATUS PATTERN: check-includes on tree NAME exits STATUS and prints PATTERN.
expect() {
  local output status
  output=$(python3 "$check" "$tmp/$1" 2>&1)
  status=$?
  if [ "$status" -ne "$2" ] || ! grep -q -- "$3" <<< "$output"; then
    echo "FAIL: $1: exit $status (wanted $2), output:"
    echo "$output"
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}

tree clean > /dev/null
expect clean 0 "0 problems"

root=$(tree upward)
printf '#include <strata/block/block_a.cuh>\n' >> "$root/include/strata/warp/warp_a.cuh"
expect upward 1 "the warp floor includes <strata/block/block_a.cuh> of the block floor"

root=$(tree cub)
# (The library's name comes in as an argument, so that this script holds no such include itself.)
printf '#include <%s/cub.cuh>\n' cub >> "$root/include/strata/thread/thread_a.cuh"
expect cub 1 "includes <cub/cub.cuh>"

root=$(tree foreign)
printf '#include <boost/container/vector.hpp>\n' >> "$root/include/strata/thread/thread_a.cuh"
expect foreign 1 "neither the toolkit's"

root=$(tree nofloor)
mkdir -p "$root/include/strata/misc"
printf '#pragma once\n' > "$root/include/strata/misc/x.cuh"
expect nofloor 1 "in no floor"

[ "$failures" -eq 0 ] && echo "check-includes self-test: all cases behave" || exit 1
