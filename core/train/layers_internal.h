// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the layer kinds' implementation files share (gpt2_layers.cpp, attention_layers.cpp):
// Eigen maps of the callers' row-major arrays, and which scalar type takes the vectorised loops.

#include <type_traits>

#include <Eigen/Core>

namespace attn::gpt2::layers_detail {

template <typename S>
using RowMat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S>
using Map = Eigen::Map<RowMat<S>>;
template <typename S>
using ConstMap = Eigen::Map<const RowMat<S>>;
template <typename S>
using Strided = Eigen::Map<RowMat<S>, 0, Eigen::OuterStride<>>;
template <typename S>
using ConstStrided = Eigen::Map<const RowMat<S>, 0, Eigen::OuterStride<>>;
template <typename S>
using ConstRow = Eigen::Map<const Eigen::Matrix<S, 1, Eigen::Dynamic>>;
template <typename S>
using Row = Eigen::Map<Eigen::Matrix<S, 1, Eigen::Dynamic>>;
template <typename S>
using Array = Eigen::Map<Eigen::Array<S, 1, Eigen::Dynamic>>;
template <typename S>
using ConstArray = Eigen::Map<const Eigen::Array<S, 1, Eigen::Dynamic>>;

// Float takes the vectorised element-wise and per-row loops; double keeps its scalar loops, so
// that the double path computes what it always did, bit for bit.
template <typename S>
constexpr bool kVectorised = std::is_same_v<S, float>;

// Scalars per 64-byte vector register (AVX-512) or cache line.
template <typename S>
constexpr long kLine = 64 / static_cast<long>(sizeof(S));

}  // namespace attn::gpt2::layers_detail
