// strata/iterator/tex_obj_input_iterator.cuh: TexObjInputIterator, which reads device memory
// through a linear texture object (the texture cache).
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

#if !defined(__CUDACC_RTC__) // under NVRTC tex1Dfetch is built in, and binding is host code
#  include <cuda_runtime.h>  // cudaCreateChannelDesc<>, tex1Dfetch<>

#  include <cstddef>
#endif

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator that reads an array of T in device memory through a linear
//! texture object. Each item is fetched in the widest texture words its size and alignment
//! allow (`UnitWord<T>::TextureWord`: 16, 8, 4, 2 or 1 bytes), so any trivially copyable T
//! works, e.g. a 12-byte struct in three 4-byte fetches.
//!
//! Bind it on the host with BindTexture() before use and release the texture with
//! UnbindTexture() when every kernel using it (or a copy of it) is done. Copies share the one
//! texture. It can be moved and compared on the host and the device and dereferenced in device
//! code; on the host, dereferencing reads the bound pointer directly, which is valid only for
//! memory the host can access (e.g. managed memory). A texture holds at most
//! cudaDeviceProp::maxTexture1DLinear words, and texture fetches take int indices.
//!
//! \code
//! strata::TexObjInputIterator<double> itr;
//! STRATA_DEBUG(itr.BindTexture(d_in, num_items * sizeof(double))); // on the host
//! // in device code: double x = itr[6];
//! STRATA_DEBUG(itr.UnbindTexture()); // after the kernels have run
//! \endcode
//!
//! \tparam T        the value type
//! \tparam OffsetT  the difference_type
template <typename T, typename OffsetT = ::cuda::std::ptrdiff_t>
class TexObjInputIterator : public detail::IteratorFacade<TexObjInputIterator<T, OffsetT>, OffsetT>
{
  using TextureWord                     = typename UnitWord<T>::TextureWord;
  static constexpr int TEXTURE_MULTIPLE = static_cast<int>(sizeof(T) / sizeof(TextureWord));
  static_assert(sizeof(T) % sizeof(TextureWord) == 0, "T must be a whole number of texture words");
  static_assert(::cuda::std::is_trivially_copyable_v<T>, "TexObjInputIterator reads T as raw words");

public:
  using self_type         = TexObjInputIterator;
  using difference_type   = OffsetT;
  using value_type        = T;
  using pointer           = T*;
  using reference         = T;
  using iterator_category = detail::random_access_iterator_tag;

  //! An unbound iterator.
  TexObjInputIterator() = default;

#if !defined(__CUDACC_RTC__)
  //! Creates a texture object over the `bytes` bytes at `ptr` and puts the iterator at item
  //! `texture_offset` of them. `ptr` must be device memory aligned to
  //! cudaDeviceProp::textureAlignment (cudaMalloc's pointers are). Returns the error of
  //! cudaCreateTextureObject.
  template <typename QualifiedT>
  STRATA_HOST cudaError_t BindTexture(QualifiedT* ptr, std::size_t bytes, std::size_t texture_offset = 0)
  {
    static_assert(::cuda::std::is_same_v<::cuda::std::remove_cv_t<QualifiedT>, T>,
                  "BindTexture takes a pointer to the iterator's value type");
    ptr_        = const_cast<T*>(ptr);
    tex_offset_ = static_cast<difference_type>(texture_offset);

    cudaResourceDesc res_desc{};
    res_desc.resType                = cudaResourceTypeLinear;
    res_desc.res.linear.devPtr      = ptr_;
    res_desc.res.linear.desc        = cudaCreateChannelDesc<TextureWord>();
    res_desc.res.linear.sizeInBytes = bytes;
    cudaTextureDesc tex_desc{};
    tex_desc.readMode = cudaReadModeElementType;
    return STRATA_DETAIL_REPORT(cudaCreateTextureObject(&tex_obj_, &res_desc, &tex_desc, nullptr));
  }

  //! Destroys the texture object: neither this iterator nor any copy of it may be dereferenced
  //! in device code afterwards.
  STRATA_HOST cudaError_t UnbindTexture()
  {
    const cudaError_t error = cudaDestroyTextureObject(tex_obj_);
    tex_obj_                = 0;
    return STRATA_DETAIL_REPORT(error);
  }
#endif

  STRATA_HOST_DEVICE reference operator*() const
  {
    NV_IF_ELSE_TARGET(NV_IS_HOST, (return ptr_[tex_offset_];), (return Fetch(tex_offset_);));
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT n) const
  {
    const difference_type offset = tex_offset_ + static_cast<difference_type>(n);
    NV_IF_ELSE_TARGET(NV_IS_HOST, (return ptr_[offset];), (return Fetch(offset);));
  }
  //! `it->member` reads a copy of `*it` that lives to the end of the expression.
  STRATA_HOST_DEVICE detail::ArrowProxy<value_type> operator->() const
  {
    return {**this};
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the pointer, the position and the texture object, e.g. `[0x7f0000000200,3,1]`.
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    return os << "[" << static_cast<const void*>(it.ptr_) << "," << it.tex_offset_ << "," << it.tex_obj_ << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<TexObjInputIterator, OffsetT>;

  //! The item at `offset`, gathered from its texture words.
  STRATA_DEVICE STRATA_FORCEINLINE T Fetch(difference_type offset) const
  {
    TextureWord words[TEXTURE_MULTIPLE];
    const difference_type first_word = offset * TEXTURE_MULTIPLE;
#pragma unroll
    for (int i = 0; i < TEXTURE_MULTIPLE; ++i)
    {
      words[i] = tex1Dfetch<TextureWord>(tex_obj_, static_cast<int>(first_word + i));
    }
    // memcpy, not bit_cast: nvcc 13 fails to compile bit_cast from an array (an internal error).
    T item;
    ::strata::detail::CopyBytes(static_cast<void*>(&item), words, sizeof(T));
    return item;
  }

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    tex_offset_ += n;
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    return tex_offset_ - origin.tex_offset_;
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return ptr_ == other.ptr_ && tex_offset_ == other.tex_offset_ && tex_obj_ == other.tex_obj_;
  }

  T* ptr_{nullptr};
  difference_type tex_offset_{0};
  cudaTextureObject_t tex_obj_{0};
};

STRATA_NAMESPACE_END
