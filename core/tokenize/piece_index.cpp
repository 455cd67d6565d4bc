// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/piece_index.h"

#include <cassert>
#include <functional>
#include <limits>

namespace attn::tok {

namespace {

std::uint64_t hashOf(std::string_view piece)
{
    return std::hash<std::string_view>{}(piece);
}

std::uint32_t upper(std::uint64_t hash)
{
    return static_cast<std::uint32_t>(hash >> 32);
}

}  // namespace

// The slot holding `piece`, or the empty one where it would go (linear probing).
std::size_t PieceIndex::slotOf(std::string_view piece, std::uint64_t hash) const
{
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (s.id < 0) return i;
        if (s.hash == upper(hash) && s.length == piece.size() &&
            std::string_view(text_).substr(s.offset, s.length) == piece)
            return i;
    }
}

void PieceIndex::grow()
{
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.id < 0) continue;
        // Only the lower half of the hash picks the slot: it is made again from the text.
        const std::uint64_t hash = hashOf(std::string_view(text_).substr(s.offset, s.length));
        std::size_t i = static_cast<std::size_t>(hash) & mask;
        while (slots_[i].id >= 0) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

bool PieceIndex::insert(std::string_view piece, int id)
{
    if ((count_ + 1) * 10 > slots_.size() * 7) grow();
    const std::uint64_t hash = hashOf(piece);
    Slot& s = slots_[slotOf(piece, hash)];
    if (s.id >= 0) return false;
    // Tokenizer files are at most kMaxTokenizerFileBytes (256 MiB): 32-bit places suffice.
    assert(text_.size() + piece.size() <= std::numeric_limits<std::uint32_t>::max());
    s.hash = upper(hash);
    s.offset = static_cast<std::uint32_t>(text_.size());
    s.length = static_cast<std::uint32_t>(piece.size());
    s.id = id;
    text_ += piece;
    ++count_;
    return true;
}

int PieceIndex::find(std::string_view piece) const
{
    if (slots_.empty()) return -1;
    return slots_[slotOf(piece, hashOf(piece))].id;
}

}  // namespace attn::tok
