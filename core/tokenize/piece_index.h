// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A tokenizer's vocabulary, piece -> id, made for the 150,000-piece vocabularies of today's
// models: the pieces side by side in one buffer, and an open-addressed table of slots that each
// hold a piece's hash, place and id. A look-up reads one slot (most often) and one piece, where
// std::unordered_map reads a bucket, a chain of nodes and their strings; loading Qwen3's
// tokenizer.json looks up 450,000 pieces to check its merges.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::tok {

class PieceIndex {
public:
    // Adds `piece` with `id` (>= 0); false, and nothing changed, when the piece is there.
    bool insert(std::string_view piece, int id);
    // The piece's id, or -1.
    [[nodiscard]] int find(std::string_view piece) const;
    [[nodiscard]] std::size_t size() const { return count_; }
    [[nodiscard]] bool empty() const { return count_ == 0; }
    // Calls f(piece, id) for every piece, in no particular order.
    template <class F>
    void forEach(F&& f) const
    {
        for (const Slot& s : slots_)
            if (s.id >= 0) f(std::string_view(text_).substr(s.offset, s.length), s.id);
    }

private:
    struct Slot {
        std::uint32_t hash = 0;  // the upper half of the piece's hash
        std::uint32_t offset = 0;
        std::uint32_t length = 0;
        int id = -1;  // -1: empty
    };
    [[nodiscard]] std::size_t slotOf(std::string_view piece, std::uint64_t hash) const;
    void grow();

    std::string text_;
    std::vector<Slot> slots_;  // a power of two long, at most 70 % full
    std::size_t count_ = 0;
};

}  // namespace attn::tok
