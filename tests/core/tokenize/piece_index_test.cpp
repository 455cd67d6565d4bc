// SPDX-License-Identifier: GPL-3.0-or-later
// The vocabulary's open-addressed index must answer as a std::unordered_map would, through its
// growth, for pieces of every length (empty, one byte, long, shared prefixes).
#include "core/tokenize/piece_index.h"

#include <gtest/gtest.h>
#include <random>
#include <unordered_map>

namespace attn::tok {
namespace {

TEST(PieceIndex, AnswersAsAHashMapThroughGrowthAndRefusesAPieceTwice)
{
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> length(0, 40);
    std::uniform_int_distribution<int> byte(0, 255);
    std::unordered_map<std::string, int> want;
    PieceIndex index;
    EXPECT_EQ(index.find("a"), -1) << "an empty index";
    int id = 0;
    while (want.size() < 60000) {
        std::string piece(static_cast<std::size_t>(length(rng)), '\0');
        for (char& c : piece) c = static_cast<char>(byte(rng));
        const bool fresh = want.emplace(piece, id).second;
        ASSERT_EQ(index.insert(piece, id), fresh) << "piece of " << piece.size() << " bytes";
        if (fresh) ++id;
    }
    EXPECT_EQ(index.size(), want.size());
    for (const auto& [piece, expected] : want) ASSERT_EQ(index.find(piece), expected);
    // Absent pieces, some a known piece with a byte more or less.
    int absent = 0;
    for (const auto& [piece, expected] : want) {
        if (++absent > 5000) break;
        const std::string longer = piece + "\x01";
        if (!want.count(longer)) {
            EXPECT_EQ(index.find(longer), -1);
        }
        if (!piece.empty() && !want.count(piece.substr(1))) {
            EXPECT_EQ(index.find(piece.substr(1)), -1);
        }
    }
    std::size_t visited = 0;
    index.forEach([&](std::string_view piece, int got) {
        ++visited;
        EXPECT_EQ(want.at(std::string(piece)), got);
    });
    EXPECT_EQ(visited, want.size());
    EXPECT_FALSE(index.insert(want.begin()->first, 999999));
    EXPECT_EQ(index.find(want.begin()->first), want.begin()->second) << "the first id stays";
}

}  // namespace
}  // namespace attn::tok
