// strata/strata.cuh: includes all of strata; under NVRTC (run-time compilation of device code)
// the thread, warp, block, iterator and grid layers only, the host-side rest being nvcc-only.
#pragma once

#include <strata/config.cuh>
#if !defined(__CUDACC_RTC__)
#  include <strata/util_allocator.cuh>
#endif
#include <strata/util_arch.cuh>
#include <strata/util_debug.cuh>
#if !defined(__CUDACC_RTC__)
#  include <strata/util_device.cuh>
#endif
#include <strata/util_macro.cuh>
#include <strata/util_math.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_ptx.cuh>
#if !defined(__CUDACC_RTC__)
#  include <strata/util_temporary_storage.cuh>
#endif
#include <strata/util_type.cuh>
#include <strata/version.cuh>

// thread layer
#include <strata/thread/thread_direct.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>
#include <strata/thread/thread_search.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/thread/thread_store.cuh>

// warp layer
#include <strata/warp/warp_exchange.cuh>
#include <strata/warp/warp_load.cuh>
#include <strata/warp/warp_merge_sort.cuh>
#include <strata/warp/warp_reduce.cuh>
#include <strata/warp/warp_reduce_batched.cuh>
#include <strata/warp/warp_scan.cuh>
#include <strata/warp/warp_store.cuh>

// block layer
#include <strata/block/block_adjacent_difference.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/block/block_histogram.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_raking_layout.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_run_length_decode.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_scan_running_prefix_op.cuh>
#include <strata/block/block_shuffle.cuh>
#include <strata/block/block_store.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>

// iterators
#include <strata/iterator/arg_index_input_iterator.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/iterator/cache_modified_output_iterator.cuh>
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/tex_obj_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

// grid
#include <strata/grid/grid_even_share.cuh>
#include <strata/grid/grid_mapping.cuh>
#include <strata/grid/grid_queue.cuh>

// device layer
#if !defined(__CUDACC_RTC__)
#  include <strata/device/device_adjacent_difference.cuh>
#  include <strata/device/device_batched_topk.cuh>
#  include <strata/device/device_copy.cuh>
#  include <strata/device/device_find.cuh>
#  include <strata/device/device_for.cuh>
#  include <strata/device/device_histogram.cuh>
#  include <strata/device/device_memcpy.cuh>
#  include <strata/device/device_merge.cuh>
#  include <strata/device/device_merge_sort.cuh>
#  include <strata/device/device_partition.cuh>
#  include <strata/device/device_radix_sort.cuh>
#  include <strata/device/device_reduce.cuh>
#  include <strata/device/device_run_length_encode.cuh>
#  include <strata/device/device_scan.cuh>
#  include <strata/device/device_segmented_radix_sort.cuh>
#  include <strata/device/device_segmented_reduce.cuh>
#  include <strata/device/device_segmented_scan.cuh>
#  include <strata/device/device_segmented_sort.cuh>
#  include <strata/device/device_select.cuh>
#  include <strata/device/device_topk.cuh>
#  include <strata/device/device_transform.cuh>
#endif
