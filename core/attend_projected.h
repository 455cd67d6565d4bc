// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Steps 2-5 of the kernel (scores, scaling, mask, softmax with exact zeros, output) for a
// head whose Q, K and V were projected elsewhere — e.g. by a transformer layer, whose
// projections carry biases and whose heads are slices of one fused matrix. It runs the same
// head pass as computeAttention(), so a model's attention is the core's attention.

#include "core/attention.h"

namespace attn {

// `hr.Q` (n x d_k), `hr.K` (m x d_k) and `hr.V` (m x d_v) must be set; fills every other stage
// of `hr`. Mode Causal needs n == m (query i sees keys 0..i); Self and Cross see every key.
// Scaling divides by 1, sqrt(d_k) or `temperature`. Returns ShapeMismatch naming "K", "V" or
// "Q" when the shapes do not fit, BadTemperature for a temperature <= 0, NonFinite as
// weighHead() does.
template <typename T>
Status attendProjected(Mode mode, Scaling scaling, HeadResultT<T>& hr, double temperature = 1.0);

// attendProjected with `bias` (n x m) added to every scaled score before the mask and the
// softmax (T5's relative position bias). ShapeMismatch naming "bias" when it is not n x m.
template <typename T>
Status attendProjectedBiased(Mode mode, Scaling scaling, const MatrixT<T>& bias,
                             HeadResultT<T>& hr);

// The same under a general mask (n x m, true = may attend), e.g. a causal sliding window: a
// query row the mask closes completely gets all-zero weights. ShapeMismatch naming "mask" when
// its shape is not n x m.
template <typename T>
Status attendProjectedMasked(const BoolMatrix& mask, Scaling scaling, HeadResultT<T>& hr);

extern template Status attendProjectedMasked<float>(const BoolMatrix&, Scaling,
                                                    HeadResultT<float>&);
extern template Status attendProjectedMasked<double>(const BoolMatrix&, Scaling,
                                                     HeadResultT<double>&);
extern template Status attendProjectedBiased<float>(Mode, Scaling, const MatrixT<float>&,
                                                    HeadResultT<float>&);
extern template Status attendProjectedBiased<double>(Mode, Scaling, const MatrixT<double>&,
                                                     HeadResultT<double>&);
extern template Status attendProjected<float>(Mode, Scaling, HeadResultT<float>&, double);
extern template Status attendProjected<double>(Mode, Scaling, HeadResultT<double>&, double);

}  // namespace attn
