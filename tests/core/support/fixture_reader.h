// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reads the PyTorch reference fixtures written by tests/reference/make_reference.py
// (format described there and in tests/reference/README.md) into an attn::AttentionInput
// plus the expected stages. Standard library + Eigen + core headers only: no Qt, no gtest.

#include <iosfwd>
#include <string>
#include <vector>

#include "core/attention_input.h"

namespace attn_test {

struct ExpectedHead {
    attn::Matrix Q, K, V;
    attn::Matrix scores;   // raw Q K^T (or additive scores)
    attn::Matrix scaled;   // scores / divisor
    attn::Matrix weights;  // P
    attn::Matrix output;   // P V
};

struct ReferenceFixture {
    std::string source;  // file path (or the name given to parseFixture), for messages
    attn::AttentionInput input;
    attn::BoolMatrix effectiveMask;  // n x m, true = may attend
    std::vector<bool> fullyMasked;   // n
    std::vector<ExpectedHead> heads;
    attn::Matrix concat;  // n x h*d_v
    attn::Matrix output;  // concat W_O, or concat
};

// Parses a fixture. Returns an empty string on success; otherwise a message naming the
// source and line, and `fixture` holds whatever was read so far (do not use it).
// Checks the syntax, that every required block is present exactly once, and that the
// expected stages have the shapes the inputs imply.
std::string parseFixture(std::istream& in, const std::string& sourceName,
                         ReferenceFixture& fixture);
std::string readFixture(const std::string& path, ReferenceFixture& fixture);

// ATTNLAB_FIXTURE_DIR + "/" + name + ".txt".
std::string fixturePath(const std::string& name);
// Names (without ".txt") of every fixture file in ATTNLAB_FIXTURE_DIR, sorted.
std::vector<std::string> listFixtures();

}  // namespace attn_test
