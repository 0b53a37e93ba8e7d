# Checks which instructions WarpReduce's reductions compile to:
#   cmake -DPTX_SM90=<PTX for sm_90> -DPTX_SM75=<PTX for sm_75> -P check_warp_reduce_ptx.cmake
# The PTX comes from warp_reduce_redux_ptx.cu. On sm_90 its redux_* kernels must use redux.sync
# and, together, every operation of it (a reduction that silently fell back to shuffles fails
# here, on machines without a GPU too), while its tree_* kernels must not; on sm_75, which has
# no redux.sync, no kernel may.
foreach(var PTX_SM90 PTX_SM75)
  if(NOT DEFINED ${var} OR NOT EXISTS "${${var}}")
    message(FATAL_ERROR "${var} (\"${${var}}\") must name the PTX built from warp_reduce_redux_ptx.cu")
  endif()
endforeach()
file(READ "${PTX_SM90}" ptx90)
file(READ "${PTX_SM75}" ptx75)

# Sums wrap, so their signedness is free; minimum and maximum widen signed types with their sign.
set(expected
    "redux\\.sync\\.add\\.[su]32[ \t]"
    "redux\\.sync\\.min\\.s32[ \t]"
    "redux\\.sync\\.min\\.u32[ \t]"
    "redux\\.sync\\.max\\.s32[ \t]"
    "redux\\.sync\\.max\\.u32[ \t]"
    "redux\\.sync\\.and\\.b32[ \t]"
    "redux\\.sync\\.or\\.b32[ \t]"
    "redux\\.sync\\.xor\\.b32[ \t]")
set(failures "")
foreach(pattern IN LISTS expected)
  if(NOT ptx90 MATCHES "${pattern}")
    list(APPEND failures "sm_90 lacks ${pattern}")
  endif()
endforeach()

# Each kernel's text runs from its ".entry" to the next one.
set(rest "${ptx90}")
set(kernels 0)
string(FIND "${rest}" ".entry " start)
while(start GREATER -1)
  math(EXPR name_start "${start} + 7")
  string(SUBSTRING "${rest}" ${name_start} -1 rest)
  string(FIND "${rest}" ".entry " start)
  string(SUBSTRING "${rest}" 0 ${start} body)
  string(REGEX MATCH "^[A-Za-z0-9_]+" name "${body}")
  math(EXPR kernels "${kernels} + 1")
  if(name MATCHES "^redux_" AND NOT body MATCHES "redux\\.sync")
    list(APPEND failures "sm_90 kernel ${name} does not use redux.sync")
  elseif(name MATCHES "^tree_" AND body MATCHES "redux\\.sync")
    list(APPEND failures "sm_90 kernel ${name} uses redux.sync")
  elseif(NOT name MATCHES "^(redux|tree)_")
    list(APPEND failures "unexpected kernel ${name}")
  endif()
endwhile()
if(kernels LESS 9)
  list(APPEND failures "sm_90 PTX has ${kernels} kernels, expected 9")
endif()

if(ptx75 MATCHES "redux\\.sync")
  list(APPEND failures "sm_75 uses redux.sync, which it does not have")
endif()
if(NOT ptx75 MATCHES "shfl\\.sync\\.down\\.b32")
  list(APPEND failures "sm_75 lacks the shuffle tree (shfl.sync.down.b32)")
endif()

if(failures)
  list(JOIN failures "\n  " failure_lines)
  message(FATAL_ERROR "WarpReduce's PTX (${PTX_SM90}, ${PTX_SM75}):\n  ${failure_lines}")
endif()
message(STATUS "${kernels} kernels: redux.sync (all operations) where expected on sm_90, nowhere on sm_75")
