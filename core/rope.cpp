// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/rope.h"

#include <cmath>
#include <numbers>
#include <string>

namespace attn {

const char* ropeScalingName(RopeScaling scaling)
{
    switch (scaling) {
    case RopeScaling::Linear: return "linear";
    case RopeScaling::Llama3: return "llama3";
    case RopeScaling::None: break;
    }
    return "none";
}

bool parseRopeScaling(const std::string& name, RopeScaling& out)
{
    if (name == "none")
        out = RopeScaling::None;
    else if (name == "linear")
        out = RopeScaling::Linear;
    else if (name == "llama3")
        out = RopeScaling::Llama3;
    else
        return false;
    return true;
}

namespace {

struct RopeFault {
    std::string field;
    std::string message;
};

// The one list of rules behind ropeProblem() and ropeProblemField().
RopeFault ropeFault(const Rope& rope, long dim)
{
    if (dim <= 0 || dim % 2 != 0)
        return {"width", "rotary positions need an even vector width, not " + std::to_string(dim)};
    if (!std::isfinite(rope.theta) || rope.theta <= 0.0)
        return {"theta", "the rotary base theta must be a finite number above 0"};
    if (rope.scaling == RopeScaling::None) return {};
    if (!std::isfinite(rope.factor) || rope.factor < 1.0)
        return {"factor", "the rotary scaling factor must be a finite number of at least 1"};
    if (rope.scaling == RopeScaling::Llama3) {
        const char* message = "llama3 rotary scaling needs 0 < low_freq_factor < high_freq_factor";
        if (!(rope.lowFreqFactor > 0.0) || !std::isfinite(rope.lowFreqFactor))
            return {"low_freq_factor", message};
        if (!(rope.highFreqFactor > rope.lowFreqFactor) || !std::isfinite(rope.highFreqFactor))
            return {"high_freq_factor", message};
        if (!(rope.originalPositions > 0.0) || !std::isfinite(rope.originalPositions))
            return {"original_max_position_embeddings",
                    "llama3 rotary scaling needs original_max_position_embeddings above 0"};
    }
    return {};
}

}  // namespace

std::string ropeProblem(const Rope& rope, long dim)
{
    return ropeFault(rope, dim).message;
}

std::string ropeProblemField(const Rope& rope, long dim)
{
    return ropeFault(rope, dim).field;
}

std::vector<double> ropeInverseFrequencies(const Rope& rope, long dim)
{
    const long half = dim / 2;
    std::vector<double> f(static_cast<std::size_t>(half));
    for (long i = 0; i < half; ++i)
        f[static_cast<std::size_t>(i)] =
            1.0 / std::pow(rope.theta, static_cast<double>(2 * i) / static_cast<double>(dim));
    if (rope.scaling == RopeScaling::Linear) {
        for (double& v : f) v /= rope.factor;
    } else if (rope.scaling == RopeScaling::Llama3) {
        const double lowWavelength = rope.originalPositions / rope.lowFreqFactor;
        const double highWavelength = rope.originalPositions / rope.highFreqFactor;
        for (double& v : f) {
            const double wavelength = 2.0 * std::numbers::pi / v;
            if (wavelength > lowWavelength) {
                v /= rope.factor;
            } else if (wavelength >= highWavelength) {
                const double smooth = (rope.originalPositions / wavelength - rope.lowFreqFactor) /
                                      (rope.highFreqFactor - rope.lowFreqFactor);
                v = (1.0 - smooth) * v / rope.factor + smooth * v;
            }
        }
    }
    return f;
}

namespace {

template <typename T, typename PositionOf>
void rotate(MatrixT<T>& x, const Rope& rope, PositionOf positionOf)
{
    const long d = x.cols();
    const long half = d / 2;
    const std::vector<double> f = ropeInverseFrequencies(rope, d);
    for (long p = 0; p < x.rows(); ++p) {
        const double position = static_cast<double>(positionOf(p));
        for (long i = 0; i < half; ++i) {
            const double angle = position * f[static_cast<std::size_t>(i)];
            const double c = std::cos(angle), s = std::sin(angle);
            const double a = static_cast<double>(x(p, i));
            const double b = static_cast<double>(x(p, i + half));
            x(p, i) = static_cast<T>(a * c - b * s);
            x(p, i + half) = static_cast<T>(b * c + a * s);
        }
    }
}

}  // namespace

template <typename T>
void applyRope(MatrixT<T>& x, const Rope& rope, long first)
{
    rotate(x, rope, [first](long p) { return first + p; });
}

template <typename T>
void applyRopeAt(MatrixT<T>& x, const Rope& rope, const std::vector<long>& positions)
{
    rotate(x, rope, [&positions](long p) { return positions[static_cast<std::size_t>(p)]; });
}

RopeTable ropeTable(const Rope& rope, long dim, long first, long rows)
{
    RopeTable t;
    t.first = first;
    const std::vector<double> f = ropeInverseFrequencies(rope, dim);
    const long half = dim / 2;
    t.cos.resize(rows, half);
    t.sin.resize(rows, half);
    for (long p = 0; p < rows; ++p)
        for (long i = 0; i < half; ++i) {
            const double angle = static_cast<double>(first + p) * f[static_cast<std::size_t>(i)];
            t.cos(p, i) = std::cos(angle);
            t.sin(p, i) = std::sin(angle);
        }
    return t;
}

template <typename T>
void applyRope(MatrixT<T>& x, const RopeTable& table, long row0)
{
    const long half = x.cols() / 2;
    for (long p = 0; p < x.rows(); ++p) {
        const auto c = table.cos.row(row0 + p).array();
        const auto s = table.sin.row(row0 + p).array();
        const Eigen::ArrayXd a = x.row(p).leftCols(half).transpose().template cast<double>();
        const Eigen::ArrayXd b = x.row(p).rightCols(half).transpose().template cast<double>();
        x.row(p).leftCols(half) =
            (a * c.transpose() - b * s.transpose()).transpose().template cast<T>();
        x.row(p).rightCols(half) =
            (b * c.transpose() + a * s.transpose()).transpose().template cast<T>();
    }
}

template void applyRope<float>(MatrixT<float>&, const RopeTable&, long);
template void applyRope<double>(MatrixT<double>&, const RopeTable&, long);
template void applyRope<float>(MatrixT<float>&, const Rope&, long);
template void applyRope<double>(MatrixT<double>&, const Rope&, long);
template void applyRopeAt<float>(MatrixT<float>&, const Rope&, const std::vector<long>&);
template void applyRopeAt<double>(MatrixT<double>&, const Rope&, const std::vector<long>&);

}  // namespace attn
