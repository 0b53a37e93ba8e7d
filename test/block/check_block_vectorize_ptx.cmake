# Checks the global accesses of BlockLoad / BlockStore's vectorized algorithms:
#   cmake -DPTX_FILE=<block_vectorize_ptx.ptx> -P check_block_vectorize_ptx.cmake
# The PTX comes from block_vectorize_ptx.cu. Its vector_* kernels must move 16-byte words
# (ld/st.global[.cg].v4.u32 or .v2.u64: LDG/STG.E.128 in SASS); its items_* kernels, whose
# loads and stores cannot be vectorized, must not use vector accesses to global memory at all.
if(NOT DEFINED PTX_FILE OR NOT EXISTS "${PTX_FILE}")
  message(FATAL_ERROR "PTX_FILE (\"${PTX_FILE}\") must name the PTX built from block_vectorize_ptx.cu")
endif()
file(READ "${PTX_FILE}" ptx)

set(wide_access "(ld|st)\\.global(\\.[a-z]+)?\\.(v4\\.[bsuf]32|v2\\.[bsuf]64)[ \t]")
set(any_vector_access "(ld|st)(\\.volatile)?\\.global(\\.[a-z]+)?\\.v[24]\\.")
set(failures "")
set(kernels 0)

# Each kernel's text runs from its ".entry" to the next one.
set(rest "${ptx}")
string(FIND "${rest}" ".entry " start)
while(start GREATER -1)
  math(EXPR name_start "${start} + 7")
  string(SUBSTRING "${rest}" ${name_start} -1 rest)
  string(FIND "${rest}" ".entry " start)
  string(SUBSTRING "${rest}" 0 ${start} body)
  string(REGEX MATCH "^[A-Za-z0-9_]+" name "${body}")
  math(EXPR kernels "${kernels} + 1")
  if(name MATCHES "^vector_")
    if(NOT body MATCHES "${wide_access}")
      list(APPEND failures "${name} has no 16-byte global access")
    endif()
  elseif(name MATCHES "^items_")
    if(body MATCHES "${any_vector_access}")
      list(APPEND failures "${name} uses a vector access to global memory")
    endif()
  else()
    list(APPEND failures "unexpected kernel ${name}")
  endif()
endwhile()
if(kernels LESS 7)
  list(APPEND failures "the PTX has ${kernels} kernels, expected 7")
endif()

if(failures)
  list(JOIN failures "\n  " failure_lines)
  message(FATAL_ERROR "BlockLoad / BlockStore vectorization (${PTX_FILE}):\n  ${failure_lines}")
endif()
message(STATUS "${kernels} kernels: 16-byte words where expected, item by item elsewhere")
