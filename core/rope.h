// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rotary position embeddings (RoPE; Su et al., "RoFormer", 2021) as the Llama family applies
// them to each head's queries and keys, in Hugging Face's "rotate half" convention:
//
//   inverse frequencies  f_i = theta^(-2i/d)              i = 0 .. d/2-1 (d = the head's width)
//                        linear scaling:  f_i / factor
//                        llama3 scaling:  long wavelengths (2 pi / f_i > original / low) divided
//                                         by factor, short ones (< original / high) kept, those
//                                         between blended smoothly (Llama 3.1's recipe)
//   the angle of row p   a_{p,i} = (first + p) f_i
//   rotation             y_i       = x_i cos a - x_{i+d/2} sin a
//                        y_{i+d/2} = x_{i+d/2} cos a + x_i sin a
//
// Each pair (x_i, x_{i+d/2}) turns by its angle, so q_m . k_n depends on m - n only: the score
// sees relative position. Angles and their sines are computed in double whatever T is, so a
// float map at position 8,000 is as close to the exact one as at position 0.

#include <string>
#include <vector>

#include "core/attention_input.h"
#include "core/rope_params.h"

namespace attn {

// Names for files and messages: "none", "linear", "llama3"; parseRopeScaling is the inverse
// (false for anything else).
const char* ropeScalingName(RopeScaling scaling);
bool parseRopeScaling(const std::string& name, RopeScaling& out);

// Why `rope` cannot rotate vectors of width `dim` ("" when it can): an odd or non-positive
// width, a theta that is not finite and > 0, a factor < 1 or not finite, llama3 factors that
// are not 0 < low < high, or original positions that are not > 0.
std::string ropeProblem(const Rope& rope, long dim);
// What ropeProblem() complains about, for messages that name it: "width", or the parameter's
// name in Hugging Face's rope_scaling ("theta", "factor", "low_freq_factor",
// "high_freq_factor", "original_max_position_embeddings"); "" when there is no problem.
std::string ropeProblemField(const Rope& rope, long dim);

// The d/2 inverse frequencies, scaling applied.
std::vector<double> ropeInverseFrequencies(const Rope& rope, long dim);

// Rotates every row of x (n x d, d even) in place, row p as position first + p.
template <typename T>
void applyRope(MatrixT<T>& x, const Rope& rope, long first = 0);

// cos and sin of every angle of rows first .. first + rows - 1 (rows x d/2 each): a model
// computes them once per run and turns every head of every layer with them.
struct RopeTable {
    long first = 0;
    // Row-major: a position's angles are read together, once per head of every row.
    using Angles = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Angles cos, sin;
};
RopeTable ropeTable(const Rope& rope, long dim, long first, long rows);

// Rotates x's rows [0, rows) as positions table.first + row0 ...: x's row r uses table row
// row0 + r. x.cols() must be twice the table's width.
template <typename T>
void applyRope(MatrixT<T>& x, const RopeTable& table, long row0 = 0);

// The same for an explicit position per row (positions.size() == x.rows()).
template <typename T>
void applyRopeAt(MatrixT<T>& x, const Rope& rope, const std::vector<long>& positions);

}  // namespace attn
