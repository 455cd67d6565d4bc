// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/attend_projected.h"

#include <cmath>

#include "core/head_pass.h"

namespace attn {

namespace {

template <typename T>
Status attendWith(Mode mode, Scaling scaling, HeadResultT<T>& hr, double temperature,
                  const MatrixT<T>* bias)
{
    const long n = hr.Q.rows();
    const long m = hr.K.rows();
    const long dk = hr.Q.cols();
    if (hr.K.cols() != dk) return Status{StatusCode::ShapeMismatch, "K", -1, -1, m, dk};
    if (hr.V.rows() != m) return Status{StatusCode::ShapeMismatch, "V", -1, -1, m, hr.V.cols()};
    if (mode == Mode::Causal && n != m)
        return Status{StatusCode::ShapeMismatch, "Q", -1, -1, m, dk};
    if (scaling == Scaling::Temperature && !(temperature > 0.0 && std::isfinite(temperature)))
        return Status{StatusCode::BadTemperature, "temperature"};
    // weighHead() reads only the options of its input (score function, scaling, and d_k
    // through the width of the first head's W_Q): an input with no tokens and a 0 x d_k W_Q
    // carries exactly those and allocates nothing.
    AttentionInput options;
    options.mode = mode;
    options.scaling = scaling;
    options.temperature = temperature;
    options.score = ScoreFunction::Dot;
    options.heads.resize(1);
    options.heads.front().W_Q.resize(0, dk);
    const MaskKind kind = mode == Mode::Causal && m > 1 ? MaskKind::Causal : MaskKind::None;
    return weighHead<T>(options, 0, kind, nullptr, hr, bias);
}

}  // namespace

template <typename T>
Status attendProjected(Mode mode, Scaling scaling, HeadResultT<T>& hr, double temperature)
{
    return attendWith<T>(mode, scaling, hr, temperature, nullptr);
}

template <typename T>
Status attendProjectedBiased(Mode mode, Scaling scaling, const MatrixT<T>& bias, HeadResultT<T>& hr)
{
    if (bias.rows() != hr.Q.rows() || bias.cols() != hr.K.rows())
        return Status{StatusCode::ShapeMismatch, "bias", -1, -1, hr.Q.rows(), hr.K.rows()};
    if (scaling == Scaling::Temperature) return Status{StatusCode::BadTemperature, "temperature"};
    return attendWith<T>(mode, scaling, hr, 1.0, &bias);
}

template <typename T>
Status attendProjectedMasked(const BoolMatrix& mask, Scaling scaling, HeadResultT<T>& hr)
{
    const long n = hr.Q.rows();
    const long m = hr.K.rows();
    const long dk = hr.Q.cols();
    if (hr.K.cols() != dk) return Status{StatusCode::ShapeMismatch, "K", -1, -1, m, dk};
    if (hr.V.rows() != m) return Status{StatusCode::ShapeMismatch, "V", -1, -1, m, hr.V.cols()};
    if (mask.rows() != n || mask.cols() != m)
        return Status{StatusCode::ShapeMismatch, "mask", -1, -1, n, m};
    if (scaling == Scaling::Temperature) return Status{StatusCode::BadTemperature, "temperature"};
    AttentionInput options;
    options.mode = Mode::Self;
    options.scaling = scaling;
    options.score = ScoreFunction::Dot;
    options.heads.resize(1);
    options.heads.front().W_Q.resize(0, dk);
    return weighHead<T>(options, 0, MaskKind::General, &mask, hr);
}

template Status attendProjectedMasked<float>(const BoolMatrix&, Scaling, HeadResultT<float>&);
template Status attendProjectedMasked<double>(const BoolMatrix&, Scaling, HeadResultT<double>&);
template Status attendProjectedBiased<float>(Mode, Scaling, const MatrixT<float>&,
                                             HeadResultT<float>&);
template Status attendProjectedBiased<double>(Mode, Scaling, const MatrixT<double>&,
                                              HeadResultT<double>&);
template Status attendProjected<float>(Mode, Scaling, HeadResultT<float>&, double);
template Status attendProjected<double>(Mode, Scaling, HeadResultT<double>&, double);

}  // namespace attn
