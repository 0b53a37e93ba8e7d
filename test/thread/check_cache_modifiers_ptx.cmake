# Checks that ThreadLoad / ThreadStore's cache modifiers emit their PTX instructions:
#   cmake -DPTX_FILE=<cache_modifiers_ptx.ptx> -P check_cache_modifiers_ptx.cmake
# The PTX comes from cache_modifiers_ptx.cu, which uses every modifier for 1-, 2-, 4-, 8- and
# 16-byte words; a modifier that silently fell back to a plain access fails here, on machines
# without a GPU too.
if(NOT DEFINED PTX_FILE OR NOT EXISTS "${PTX_FILE}")
  message(FATAL_ERROR "PTX_FILE (\"${PTX_FILE}\") must name the PTX built from cache_modifiers_ptx.cu")
endif()
file(READ "${PTX_FILE}" ptx)

set(widths u8 u16 u32 u64 "v2\\.u64")
set(expected "")
foreach(op ca cg cs cv nc)
  foreach(width IN LISTS widths)
    list(APPEND expected "ld\\.global\\.${op}\\.${width}[ \t]")
  endforeach()
endforeach()
foreach(op wb cg cs wt)
  foreach(width IN LISTS widths)
    list(APPEND expected "st\\.global\\.${op}\\.${width}[ \t]")
  endforeach()
endforeach()
# Volatile accesses go word by word in at most 8-byte words, in whatever state space the compiler
# proves (global here, when it sees the kernel parameter), and in shared memory.
foreach(width u8 u16 u32 u64)
  list(APPEND expected "ld\\.volatile(\\.global)?\\.${width}[ \t]" "st\\.volatile(\\.global)?\\.${width}[ \t]")
endforeach()
list(APPEND expected "ld\\.volatile\\.shared\\.u32[ \t]" "st\\.volatile\\.shared\\.u32[ \t]")

set(missing "")
foreach(pattern IN LISTS expected)
  if(NOT ptx MATCHES "${pattern}")
    list(APPEND missing "${pattern}")
  endif()
endforeach()
list(LENGTH expected checked)
if(missing)
  list(JOIN missing "\n  " missing_lines)
  message(FATAL_ERROR "${PTX_FILE} lacks these instructions:\n  ${missing_lines}")
endif()
message(STATUS "all ${checked} cache-modifier instructions found in ${PTX_FILE}")
