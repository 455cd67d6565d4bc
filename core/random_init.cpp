// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/random_init.h"

#include <cmath>
#include <numbers>

namespace attn {

std::uint64_t Rng::nextU64()
{
    // splitmix64
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double Rng::uniform()
{
    return static_cast<double>(nextU64() >> 11) * 0x1.0p-53;
}

double Rng::normal()
{
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    double u = 0.0;
    while (u <= 0.0) u = uniform();
    const double v = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u));
    const double angle = 2.0 * std::numbers::pi * v;
    spare_ = radius * std::sin(angle);
    hasSpare_ = true;
    return radius * std::cos(angle);
}

Matrix randomNormal(long rows, long cols, Rng& rng, double stddev)
{
    Matrix m(rows, cols);
    for (long r = 0; r < rows; ++r) {
        for (long c = 0; c < cols; ++c) m(r, c) = stddev * rng.normal();
    }
    return m;
}

AttentionInput randomInput(const RandomSpec& spec)
{
    Rng rng(spec.seed);
    AttentionInput in;
    in.mode = spec.mode;
    in.X = randomNormal(spec.n, spec.dModel, rng);
    if (spec.mode == Mode::Cross) in.Y = randomNormal(spec.m, spec.dModel, rng);
    const double projStd = 1.0 / std::sqrt(static_cast<double>(std::max<long>(spec.dModel, 1)));
    const double addStd = 1.0 / std::sqrt(static_cast<double>(std::max<long>(spec.dK, 1)));
    for (long h = 0; h < spec.heads; ++h) {
        HeadParams p;
        p.W_Q = randomNormal(spec.dModel, spec.dK, rng, projStd);
        p.W_K = randomNormal(spec.dModel, spec.dK, rng, projStd);
        p.W_V = randomNormal(spec.dModel, spec.dV, rng, projStd);
        p.additive.W_a = randomNormal(spec.dAdditive, spec.dK, rng, addStd);
        p.additive.U_a = randomNormal(spec.dAdditive, spec.dK, rng, addStd);
        p.additive.v = randomNormal(spec.dAdditive, 1, rng, addStd).col(0);
        in.heads.push_back(std::move(p));
    }
    if (spec.heads > 1) {
        const long concat = spec.heads * spec.dV;
        in.W_O =
            randomNormal(concat, spec.dModel, rng, 1.0 / std::sqrt(static_cast<double>(concat)));
    }
    return in;
}

}  // namespace attn
