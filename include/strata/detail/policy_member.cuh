// strata/detail/policy_member.cuh: reading a tuning policy's strata-only members, with the values
// a policy written for CUB (which lacks them) gets.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

//! Defines `NAME<PolicyT>`, a TYPE constant: `PolicyT::MEMBER` where the policy has that member,
//! else DEFAULT (an expression that may use PolicyT). Use inside a namespace of strata.
#define STRATA_DETAIL_POLICY_MEMBER_OR(NAME, TYPE, MEMBER, DEFAULT)                                                    \
  template <typename PolicyT, typename = void>                                                                         \
  inline constexpr TYPE NAME = DEFAULT;                                                                                \
  template <typename PolicyT>                                                                                          \
  inline constexpr TYPE NAME<PolicyT, ::cuda::std::void_t<decltype(PolicyT::MEMBER)>> = PolicyT::MEMBER;
