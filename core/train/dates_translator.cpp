// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/dates_translator.h"

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>
#include <set>
#include <unordered_map>

#include "core/tokenize/spm_tokenizer.h"

namespace attn::dates {

namespace {

class LineIterator : public sentencepiece::SentenceIterator {
public:
    explicit LineIterator(const std::vector<std::string>& lines) : lines_(lines) {}
    bool done() const override { return at_ >= lines_.size(); }
    void Next() override { ++at_; }
    const std::string& value() const override { return lines_[at_]; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    const std::vector<std::string>& lines_;
    std::size_t at_ = 0;
};

// The distinct characters of `lines`.
std::size_t distinctCharacters(const std::vector<std::string>& lines)
{
    std::set<std::string> seen;
    for (const std::string& line : lines)
        for (std::size_t i = 0; i < line.size();) {
            std::size_t n = 1;
            while (i + n < line.size() && (static_cast<unsigned char>(line[i + n]) & 0xC0) == 0x80)
                ++n;
            seen.insert(line.substr(i, n));
            i += n;
        }
    return seen.size();
}

// `symbols`: pieces kept whole (comma-separated), besides the characters.
Status trainModel(const std::vector<std::string>& lines, const char* side,
                  const std::string& symbols, std::string& out)
{
    // A character model has one piece per character, <unk> and the whole symbols: exactly that
    // many are asked for.
    const auto whole = symbols.empty() ? 0 : std::count(symbols.begin(), symbols.end(), ',') + 1;
    std::unordered_map<std::string, std::string> args = {
        {"model_type", "char"},
        {"vocab_size",
         std::to_string(distinctCharacters(lines) + 1 + static_cast<std::size_t>(whole))},
        {"character_coverage", "1.0"},
        {"normalization_rule_name", "identity"},
        {"add_dummy_prefix", "false"},
        {"unk_id", "0"},
        {"bos_id", "-1"},
        {"eos_id", "-1"},
        {"pad_id", "-1"},
        {"minloglevel", "2"},
        {"num_threads", "1"}};
    if (!symbols.empty()) args["user_defined_symbols"] = symbols;
    LineIterator it(lines);
    const auto s = sentencepiece::SentencePieceTrainer::Train(args, &it, &out);
    if (s.ok()) return {};
    return failure(StatusCode::TokenizerSyntax, side, "", "libsentencepiece: " + s.ToString());
}

std::vector<std::string> modelPieces(const std::string& bytes)
{
    sentencepiece::SentencePieceProcessor sp;
    std::vector<std::string> pieces;
    if (!sp.LoadFromSerializedProto(bytes).ok()) return pieces;
    for (int i = 0; i < sp.GetPieceSize(); ++i)
        if (!sp.IsUnused(i) && !sp.IsControl(i) && !sp.IsUnknown(i))
            pieces.push_back(sp.IdToPiece(i));
    return pieces;
}

std::size_t codePoints(const std::string& text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

Status trainVocabulary(Vocabulary& out)
{
    std::vector<std::string> sources, targets;
    for (const Date& d : allDates()) {
        if (heldOut(d)) continue;
        for (int f = 0; f < kForms; ++f)
            sources.push_back(datePair(d, static_cast<DateForm>(f)).source);
        targets.push_back(datePair(d, DateForm::Arabic).target);
    }
    Vocabulary v;
    std::string months;
    for (int m = 1; m <= 12; ++m) {
        if (m > 1) months.push_back(',');
        months.append(monthName(m));
    }
    if (Status s = trainModel(sources, "source.spm", "", v.sourceSpm); !s.ok()) return s;
    if (Status s = trainModel(targets, "target.spm", months, v.targetSpm); !s.ok()) return s;
    v.pieces = {"</s>", "<unk>"};
    for (const std::string* model : {&v.sourceSpm, &v.targetSpm})
        for (const std::string& piece : modelPieces(*model))
            if (std::find(v.pieces.begin(), v.pieces.end(), piece) == v.pieces.end())
                v.pieces.push_back(piece);
    v.pieces.push_back("<pad>");
    v.eos = 0;
    v.unk = 1;
    v.pad = static_cast<int>(v.pieces.size()) - 1;
    out = std::move(v);
    return {};
}

std::string vocabularyJson(const Vocabulary& v)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < v.pieces.size(); ++i) j[v.pieces[i]] = i;
    return j.dump(2) + "\n";
}

std::string tokenizerConfigJson(const Vocabulary&)
{
    const nlohmann::ordered_json j = {{"tokenizer_class", "MarianTokenizer"},
                                      {"source_lang", "zh"},
                                      {"target_lang", "en"},
                                      {"eos_token", "</s>"},
                                      {"unk_token", "<unk>"},
                                      {"pad_token", "<pad>"},
                                      {"model_max_length", 32},
                                      {"separate_vocabs", false}};
    return j.dump(2) + "\n";
}

struct PairEncoder::Impl {
    tok::SpmTokenizer source, target;
    int eos = 0;
};

Status PairEncoder::make(const Vocabulary& v, PairEncoder& out)
{
    tok::SpmOptions options;
    for (std::size_t i = 0; i < v.pieces.size(); ++i)
        options.vocab[v.pieces[i]] = static_cast<int>(i);
    auto source = tok::SpmTokenizer::fromBytes(v.sourceSpm, "source.spm", options);
    auto target = tok::SpmTokenizer::fromBytes(v.targetSpm, "target.spm", options);
    if (const Status* s = std::get_if<Status>(&source)) return *s;
    if (const Status* s = std::get_if<Status>(&target)) return *s;
    out.impl_ = std::make_shared<const Impl>(
        Impl{std::get<tok::SpmTokenizer>(source), std::get<tok::SpmTokenizer>(target), v.eos});
    return {};
}

Status PairEncoder::encode(const DatePair& pair, EncodedPair& out) const
{
    const auto side = [&](const tok::SpmTokenizer& spm, const std::string& text,
                          const std::vector<DateField>& fields, std::vector<int>& ids,
                          std::vector<DateField>& idFields) -> Status {
        ids = spm.encode(text);
        idFields.clear();
        // A piece's field is that of its characters (a space or a comma has none).
        std::size_t at = 0;
        for (const int id : ids) {
            const std::size_t n = codePoints(spm.tokenBytes(id));
            if (id == spm.unknownId() || at + n > fields.size())
                return failure(StatusCode::TokenizerSyntax, text, "",
                               "its pieces do not spell it in known characters");
            DateField field = DateField::None;
            for (std::size_t k = at; k < at + n; ++k)
                if (fields[k] != DateField::None) field = fields[k];
            idFields.push_back(field);
            at += n;
        }
        if (at != fields.size())
            return failure(StatusCode::TokenizerSyntax, text, "",
                           "its pieces do not spell it in known characters");
        ids.push_back(impl_->eos);
        idFields.push_back(DateField::None);
        return {};
    };
    EncodedPair e;
    e.date = pair.date;
    e.form = pair.form;
    if (Status s = side(impl_->source, pair.source, pair.sourceFields, e.source, e.sourceFields);
        !s.ok())
        return s;
    if (Status s = side(impl_->target, pair.target, pair.targetFields, e.labels, e.labelFields);
        !s.ok())
        return s;
    out = std::move(e);
    return {};
}

std::string PairEncoder::targetText(const std::vector<int>& ids) const
{
    std::string text;
    for (int id : ids) {
        if (id == impl_->eos) break;
        text += impl_->target.tokenBytes(id);
    }
    return text;
}

BatchData makeBatch(const std::vector<const EncodedPair*>& pairs, int pad)
{
    BatchData b;
    b.B = static_cast<long>(pairs.size());
    for (const EncodedPair* p : pairs) {
        b.S = std::max(b.S, static_cast<long>(p->source.size()));
        b.T = std::max(b.T, static_cast<long>(p->labels.size()));
    }
    const auto B = static_cast<std::size_t>(b.B);
    b.source.assign(B * static_cast<std::size_t>(b.S), pad);
    b.input.assign(B * static_cast<std::size_t>(b.T), pad);
    b.targets.assign(B * static_cast<std::size_t>(b.T), -1);
    for (std::size_t i = 0; i < B; ++i) {
        const EncodedPair& p = *pairs[i];
        b.lengths.push_back(static_cast<int>(p.source.size()));
        std::copy(p.source.begin(), p.source.end(), b.source.begin() + static_cast<long>(i) * b.S);
        for (std::size_t t = 0; t < p.labels.size(); ++t) {
            const std::size_t at = i * static_cast<std::size_t>(b.T) + t;
            b.targets[at] = p.labels[t];
            b.input[at] = t == 0 ? pad : p.labels[t - 1];
        }
    }
    return b;
}

}  // namespace attn::dates
