// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Steps 2-5 of one head in one pass over blocks of query rows. For each block the scores
// (dot product), the scaled scores, the mask rows, the softmax, the diagnostics and the
// output rows are computed while the block is still in cache, and blocks run in parallel.
// The separate whole-matrix passes this replaces (scores, finiteness check, scaling, mask
// copy, softmax, output) each streamed n x m values through memory.

#include "core/attention.h"

namespace attn {

// Query rows per block: a multiple of 64 so that no two threads share a word of
// RowDiagnosticsT::fullyMasked (a std::vector<bool>), and large enough that the packing of
// K and V for each block's products stays small beside the products themselves.
inline constexpr long kHeadBlockRows = 128;

// Under a causal mask, the rows of a block are scored in slices of this many, each against only
// the keys its last row may see.
inline constexpr long kCausalSliceRows = 64;

// Why a row's softmax could not be taken: a raw score, or a scaled one, is not finite.
enum class RowFault { None, Score, Scaled };

// Fills scores, scaled, mask, weights, the per-row softmax facts, the diagnostics and the
// output of a head whose Q, K and V are set. `general` is the effective mask when `kind` is
// MaskKind::General (ignored otherwise). `bias` (n x m, if given) is added to the scaled scores
// before the mask and the softmax: T5's relative positions, which are learned per distance
// instead of added to the embeddings. Returns NonFinite naming "heads[h].scores" or
// "heads[h].scaled" if a score or a scaled score is not finite; the head is then partly
// written.
template <typename T>
Status weighHead(const AttentionInput& input, int head, MaskKind kind, const BoolMatrix* general,
                 HeadResultT<T>& hr, const MatrixT<T>* bias = nullptr);

// Resizes a matrix for n x m results, asking for huge pages when it is newly allocated.
template <typename M>
void resizeLarge(M& matrix, long rows, long cols);

extern template Status weighHead<double>(const AttentionInput&, int, MaskKind, const BoolMatrix*,
                                         HeadResultT<double>&, const MatrixT<double>*);
extern template Status weighHead<float>(const AttentionInput&, int, MaskKind, const BoolMatrix*,
                                        HeadResultT<float>&, const MatrixT<float>*);

}  // namespace attn
