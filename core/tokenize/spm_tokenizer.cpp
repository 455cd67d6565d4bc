// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/spm_tokenizer.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <sentencepiece_processor.h>

namespace attn::tok {

struct SpmTokenizer::Impl {
    sentencepiece::SentencePieceProcessor processor;
    std::unordered_map<std::string, int> vocab;  // empty: the model's own ids
    std::vector<std::string> pieces;             // id -> piece of `vocab`
    int unknown = -1;
    int extraIds = 0;
};

namespace {

constexpr std::string_view kSpace = "\xE2\x96\x81";  // U+2581, SentencePiece's space

// "<0xE4>" as its byte (byte_fallback pieces), else empty.
std::string bytePiece(const std::string& piece)
{
    if (piece.size() != 6 || !piece.starts_with("<0x") || piece.back() != '>') return {};
    const auto hex = [](char c) {
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                      : -1;
    };
    const int hi = hex(piece[3]), lo = hex(piece[4]);
    if (hi < 0 || lo < 0) return {};
    return std::string(1, static_cast<char>(hi * 16 + lo));
}

}  // namespace

Loaded<SpmTokenizer> SpmTokenizer::fromBytes(const std::string& bytes, const std::string& name,
                                             SpmOptions options)
{
    auto impl = std::make_shared<Impl>();
    std::unordered_map<std::string, int>& vocab = options.vocab;
    const std::string& unknownPiece = options.unknownPiece;
    if (options.extraIds < 0 || options.extraIds > 1000)
        return tokenizerError(
            name, std::to_string(options.extraIds) + " extra ids are outside 0 to 1000");
    impl->extraIds = options.extraIds;
    try {
        if (const auto s = impl->processor.LoadFromSerializedProto(bytes); !s.ok())
            return tokenizerError(name, "not a SentencePiece model: " + std::string(s.message()));
    } catch (const std::exception& e) {
        // The library throws where a well-formed message holds a model it cannot build (a
        // piece of no characters makes its trie builder throw).
        return tokenizerError(name, "not a SentencePiece model: " + std::string(e.what()));
    }
    if (impl->processor.GetPieceSize() <= 0)
        return tokenizerError(name, "a SentencePiece model without pieces");
    if (!vocab.empty()) {
        const auto unk = vocab.find(unknownPiece);
        if (unk == vocab.end())
            return tokenizerError(name,
                                  "the vocabulary has no unknown token \"" + unknownPiece + "\"");
        impl->unknown = unk->second;
        int top = 0;
        for (const auto& [piece, id] : vocab) {
            // The ids index a table: one far past the count would make it huge.
            if (id < 0 || static_cast<std::size_t>(id) >= kMaxVocabEntries)
                return tokenizerError(name, "the piece \"" + piece + "\" has the id " +
                                                std::to_string(id) + ", outside 0 to " +
                                                std::to_string(kMaxVocabEntries - 1));
            top = std::max(top, id);
        }
        impl->pieces.assign(static_cast<std::size_t>(top) + 1, std::string());
        for (const auto& [piece, id] : vocab) impl->pieces[static_cast<std::size_t>(id)] = piece;
        impl->vocab = std::move(vocab);
    } else {
        impl->unknown = impl->processor.unk_id();
    }
    return SpmTokenizer(std::move(impl));
}

Loaded<SpmTokenizer> SpmTokenizer::fromFile(const std::filesystem::path& model, SpmOptions options)
{
    std::string bytes;
    if (auto err = readWholeFile(model, bytes, kMaxSpmFileBytes)) return *err;
    return fromBytes(bytes, model.string(), std::move(options));
}

std::vector<int> SpmTokenizer::encode(std::string_view utf8) const
{
    std::vector<Dropped> ignored;
    return encode(utf8, ignored);
}

std::vector<int> SpmTokenizer::encode(std::string_view utf8, std::vector<Dropped>& dropped) const
{
    const sentencepiece::ImmutableSentencePieceText spt =
        impl_->processor.EncodeAsImmutableProto(utf8);
    std::vector<int> ids;
    DropLog log;
    for (const auto& p : spt.pieces()) {
        int id = static_cast<int>(p.id());
        bool unknown = impl_->processor.IsUnknown(p.id());
        if (!impl_->vocab.empty()) {
            // As MarianTokenizer: the piece's text looked up in the vocabulary, whatever the
            // model called it (a character the model lacks is its own piece, and a shared
            // vocabulary may hold it from the other side's model).
            const auto it = impl_->vocab.find(p.piece());
            unknown = it == impl_->vocab.end() || it->second == impl_->unknown;
            id = it == impl_->vocab.end() ? impl_->unknown : it->second;
        }
        if (unknown && p.end() > p.begin())
            log.add(Span{p.begin(), p.end()}, Dropped::Fate::Unknown);
        ids.push_back(id);
    }
    dropped = log.report(utf8);
    return ids;
}

std::string SpmTokenizer::piece(int id) const
{
    if (!impl_->vocab.empty())
        return id >= 0 && id < static_cast<int>(impl_->pieces.size())
                   ? impl_->pieces[static_cast<std::size_t>(id)]
                   : std::string();
    const int size = impl_->processor.GetPieceSize();
    if (id >= size && id < size + impl_->extraIds)
        return "<extra_id_" + std::to_string(size + impl_->extraIds - 1 - id) + ">";
    if (id < 0 || id >= size) return {};
    return impl_->processor.IdToPiece(id);
}

std::string SpmTokenizer::tokenBytes(int id) const
{
    const std::string p = piece(id);
    if (std::string b = bytePiece(p); !b.empty()) return b;
    std::string out;
    for (std::size_t i = 0; i < p.size();) {
        if (p.compare(i, kSpace.size(), kSpace) == 0) {
            out += ' ';
            i += kSpace.size();
        } else {
            out += p[i++];
        }
    }
    return out;
}

std::size_t SpmTokenizer::vocabSize() const
{
    return impl_->vocab.empty()
               ? static_cast<std::size_t>(impl_->processor.GetPieceSize() + impl_->extraIds)
               : impl_->pieces.size();
}

int SpmTokenizer::idOf(const std::string& piece) const
{
    if (!impl_->vocab.empty()) {
        const auto it = impl_->vocab.find(piece);
        return it == impl_->vocab.end() ? -1 : it->second;
    }
    if (piece.starts_with("<extra_id_") && piece.ends_with(">") && piece.size() > 11) {
        const std::string_view digits(piece.data() + 10, piece.size() - 11);
        int k = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
        if (ec == std::errc() && end == digits.data() + digits.size() && k >= 0 &&
            k < impl_->extraIds && (digits.size() == 1 || digits[0] != '0'))
            return impl_->processor.GetPieceSize() + impl_->extraIds - 1 - k;
    }
    const int id = impl_->processor.PieceToId(piece);
    return impl_->processor.IsUnknown(id) && piece != impl_->processor.IdToPiece(id) ? -1 : id;
}

int SpmTokenizer::unknownId() const
{
    return impl_->unknown;
}

bool SpmTokenizer::usesVocabulary() const
{
    return !impl_->vocab.empty();
}

}  // namespace attn::tok
