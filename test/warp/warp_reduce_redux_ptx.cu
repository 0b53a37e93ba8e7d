// Kernels whose WarpReduce calls qualify for the hardware reduction (redux.sync), named redux_*:
// every operation it has, signed and unsigned, narrow integers widened, partial, and logical
// warps of 17 to 31 lanes (alone in their hardware warp); and kernels named tree_* whose calls
// must keep the tree (several logical warps per hardware warp, segments). Compiled to PTX only (not linked or run), so
// that check_warp_reduce_ptx.cmake can check which instructions they use without a GPU.
#include <strata/warp/warp_reduce.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>

//! The sum of 32-bit signed integers over full warps (redux.sync.add).
extern "C" __global__ void redux_sum_s32(const std::int32_t* in, std::int32_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::int32_t>;
  __shared__ WarpReduceT::TempStorage temp_storage[2];
  out[threadIdx.x] = WarpReduceT(temp_storage[threadIdx.x / 32]).Sum(in[threadIdx.x]);
}

//! The minimum of 16-bit signed integers, widened with their sign, of which `valid_items` lanes
//! contribute (redux.sync.min.s32).
extern "C" __global__ void redux_min_s16(const std::int16_t* in, std::int16_t* out, int valid_items)
{
  using WarpReduceT = strata::WarpReduce<std::int16_t>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  out[threadIdx.x] = WarpReduceT(temp_storage).Reduce(in[threadIdx.x], cuda::minimum<>{}, valid_items);
}

//! The minimum of 32-bit unsigned integers, typed operator (redux.sync.min.u32).
extern "C" __global__ void redux_min_u32(const std::uint32_t* in, std::uint32_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::uint32_t>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  out[threadIdx.x] = WarpReduceT(temp_storage).Reduce(in[threadIdx.x], cuda::minimum<std::uint32_t>{});
}

//! The maximum of 8-bit signed integers over a 21-lane logical warp (redux.sync.max.s32).
extern "C" __global__ void redux_max_s8(const std::int8_t* in, std::int8_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::int8_t, 21>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  if (threadIdx.x < 21)
  {
    out[threadIdx.x] = WarpReduceT(temp_storage).Reduce(in[threadIdx.x], cuda::maximum<>{});
  }
}

//! The maximum of 8-bit unsigned integers (redux.sync.max.u32).
extern "C" __global__ void redux_max_u8(const std::uint8_t* in, std::uint8_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::uint8_t>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  out[threadIdx.x] = WarpReduceT(temp_storage).Reduce(in[threadIdx.x], cuda::maximum<>{});
}

//! The bitwise operators over 16-bit unsigned integers and a partial 19-lane logical warp
//! (redux.sync.and/or/xor.b32).
extern "C" __global__ void redux_bitwise_u16(const std::uint16_t* in, std::uint16_t* out, int valid_items)
{
  using WarpReduceT = strata::WarpReduce<std::uint16_t, 19>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  if (threadIdx.x < 19)
  {
    const std::uint16_t item = in[threadIdx.x];
    out[threadIdx.x]         = WarpReduceT(temp_storage).Reduce(item, cuda::std::bit_and<>{}, valid_items);
    __syncwarp(0x7FFFFu);
    out[threadIdx.x + 32] = WarpReduceT(temp_storage).Reduce(item, cuda::std::bit_or<>{});
    __syncwarp(0x7FFFFu);
    out[threadIdx.x + 64] = WarpReduceT(temp_storage).Reduce(item, cuda::std::bit_xor<std::uint16_t>{});
  }
}

//! A sum over 8-lane sub-warps: redux.sync would run once per sub-warp, the tree does not.
extern "C" __global__ void tree_sum_subwarps(const std::int32_t* in, std::int32_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::int32_t, 8>;
  __shared__ WarpReduceT::TempStorage temp_storage[4];
  out[threadIdx.x] = WarpReduceT(temp_storage[threadIdx.x / 8]).Sum(in[threadIdx.x]);
}

//! A sum over four 7-lane logical warps in one hardware warp: redux.sync would run once per
//! logical warp, the tree does not.
extern "C" __global__ void tree_sum_7_lanes(const std::int32_t* in, std::int32_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::int32_t, 7>;
  __shared__ WarpReduceT::TempStorage temp_storage[4];
  if (threadIdx.x < 28)
  {
    out[threadIdx.x] = WarpReduceT(temp_storage[threadIdx.x / 7]).Sum(in[threadIdx.x]);
  }
}

//! Segmented sums: redux.sync would run once per segment, the tree does not.
extern "C" __global__ void tree_segmented_sum(const std::uint32_t* in, const std::uint8_t* flags, std::uint32_t* out)
{
  using WarpReduceT = strata::WarpReduce<std::uint32_t>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  out[threadIdx.x] = WarpReduceT(temp_storage).HeadSegmentedSum(in[threadIdx.x], flags[threadIdx.x]);
  __syncwarp();
  out[threadIdx.x + 32] = WarpReduceT(temp_storage).TailSegmentedSum(in[threadIdx.x], flags[threadIdx.x]);
}
