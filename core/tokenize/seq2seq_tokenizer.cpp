// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/seq2seq_tokenizer.h"

#include <nlohmann/json.hpp>
#include <system_error>

#include "core/io/json_read.h"
#include "core/tokenize/unigram_spm.h"

namespace attn::tok {

namespace {

Status missingFile(const std::filesystem::path& file, const std::string& why)
{
    return failure(StatusCode::TokenizerFile, file.string(), "", "file not found: " + why);
}

bool fileThere(const std::filesystem::path& p)
{
    std::error_code ec;
    return std::filesystem::exists(p, ec);
}

// The special tokens a text may spell, each read as its token (as transformers' tokenizers
// split them out before the rest is tokenized), where the vocabulary has them.
// BART's <mask> also takes the whitespace before it.
template <typename Vocabulary>
std::vector<Tokenizer::TextSpecial> textSpecials(const Vocabulary& vocabulary,
                                                 const std::vector<std::string>& pieces)
{
    std::vector<Tokenizer::TextSpecial> out;
    for (const std::string& piece : pieces)
        if (const int id = vocabulary.idOf(piece); id >= 0)
            out.push_back({piece, id, piece == "<mask>"});
    return out;
}

// Marian's vocab.json: an object of piece -> id.
std::optional<Status> readPieceIds(const std::filesystem::path& file,
                                   std::unordered_map<std::string, int>& out)
{
    std::string text;
    if (auto err = readWholeFile(file, text, kMaxVocabFileBytes)) return err;
    nlohmann::json j;
    io::JsonLimits limits;
    limits.maxValues = kMaxVocabEntries + 1;
    if (const io::JsonProblem p = io::parseJson(text, j, limits); !p.ok())
        return tokenizerError(file.string(), "not valid JSON: " + io::describe(p));
    if (!j.is_object())
        return tokenizerError(file.string(), "must be a JSON object mapping pieces to ids");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!it.value().is_number_integer())
            return tokenizerError(file.string(),
                                  "the id of the piece \"" + it.key() + "\" is not an integer");
        const long long id = it.value().get<long long>();
        if (id < 0 || id >= static_cast<long long>(kMaxVocabEntries))
            return tokenizerError(file.string(), "the piece \"" + it.key() + "\" has the id " +
                                                     std::to_string(id) + ", outside 0 to " +
                                                     std::to_string(kMaxVocabEntries - 1));
        out[it.key()] = static_cast<int>(id);
    }
    return std::nullopt;
}

// The id of a special token the model's tokenizer adds, refused when the vocabulary lacks it.
std::optional<Status> specialId(const SpmTokenizer& spm, const std::string& piece,
                                const std::string& file, int& id)
{
    id = spm.idOf(piece);
    if (id < 0) return tokenizerError(file, "has no \"" + piece + "\" token");
    return std::nullopt;
}

Loaded<Seq2SeqTokenizers> loadMarian(const std::filesystem::path& folder)
{
    const auto vocabFile = folder / "vocab.json";
    const auto sourceFile = folder / "source.spm";
    const auto targetFile = folder / "target.spm";
    for (const auto& f : {sourceFile, targetFile, vocabFile})
        if (!fileThere(f))
            return missingFile(f, "a Marian tokenizer needs source.spm, target.spm and vocab.json");
    std::unordered_map<std::string, int> vocab;
    if (auto err = readPieceIds(vocabFile, vocab)) return *err;
    std::optional<Tokenizer> sides[2];
    const std::filesystem::path files[2] = {sourceFile, targetFile};
    for (int k = 0; k < 2; ++k) {
        SpmOptions o;
        o.vocab = vocab;
        auto loaded = SpmTokenizer::fromFile(files[k], std::move(o));
        if (auto* err = std::get_if<Status>(&loaded)) return *err;
        const SpmTokenizer& spm = std::get<SpmTokenizer>(loaded);
        int eos = -1;
        if (auto err = specialId(spm, "</s>", vocabFile.string(), eos)) return *err;
        Tokenizer t(spm, "marian");
        t.setSpecials({}, {eos}, "marian", textSpecials(spm, {"</s>", "<unk>", "<pad>"}));
        t.setLanguageCodes(true);
        sides[k] = std::move(t);
    }
    return Seq2SeqTokenizers{std::move(*sides[0]), std::move(*sides[1])};
}

// spiece.model, or where a folder has only tokenizer.json, the SentencePiece model it was made
// from (unigram_spm.h): the same library runs either.
Loaded<SpmTokenizer> loadT5Model(const std::filesystem::path& folder)
{
    const auto model = folder / "spiece.model";
    const auto json = folder / "tokenizer.json";
    if (fileThere(model) || !fileThere(json)) {
        if (!fileThere(model))
            return missingFile(model, "a T5 tokenizer needs spiece.model or tokenizer.json");
        SpmOptions o;
        o.extraIds = kT5ExtraIds;
        return SpmTokenizer::fromFile(model, std::move(o));
    }
    std::string text;
    if (auto err = readWholeFile(json, text)) return *err;
    Loaded<UnigramSpm> converted = spmFromTokenizerJson(text, json.string());
    if (auto* err = std::get_if<Status>(&converted)) return *err;
    UnigramSpm& u = std::get<UnigramSpm>(converted);
    SpmOptions o;
    o.extraIds = u.extraIds;
    return SpmTokenizer::fromBytes(u.model, json.string(), std::move(o));
}

Loaded<Seq2SeqTokenizers> loadT5(const std::filesystem::path& folder)
{
    const auto model =
        fileThere(folder / "spiece.model") ? folder / "spiece.model" : folder / "tokenizer.json";
    auto loaded = loadT5Model(folder);
    if (auto* err = std::get_if<Status>(&loaded)) return *err;
    const SpmTokenizer& spm = std::get<SpmTokenizer>(loaded);
    int eos = -1;
    if (auto err = specialId(spm, "</s>", model.string(), eos)) return *err;
    Tokenizer t(spm, "t5");
    std::vector<std::string> specials = {"<pad>", "</s>", "<unk>"};
    for (int k = 0; k < kT5ExtraIds; ++k)
        specials.push_back("<extra_id_" + std::to_string(k) + ">");
    t.setSpecials({}, {eos}, "t5", textSpecials(spm, specials));
    return Seq2SeqTokenizers{t, t};
}

// Built by appending: GCC 12 warns (stringop-overflow, a false positive) on the
// literal + std::string form once it is inlined here.
std::string notEncoderDecoder(std::string_view modelType)
{
    std::string why = "\"";
    why += modelType;
    why += "\" is not an encoder-decoder's model type";
    return why;
}

Loaded<Seq2SeqTokenizers> loadBart(const std::filesystem::path& folder)
{
    const auto vocab = folder / "vocab.json";
    const auto merges = folder / "merges.txt";
    for (const auto& f : {vocab, merges})
        if (!fileThere(f))
            return missingFile(f, "a BART tokenizer needs vocab.json and merges.txt");
    auto loaded = Gpt2Tokenizer::fromFiles(vocab, merges);
    if (auto* err = std::get_if<Status>(&loaded)) return *err;
    const Gpt2Tokenizer& g = std::get<Gpt2Tokenizer>(loaded);
    const int bos = g.idOf("<s>");
    const int eos = g.idOf("</s>");
    if (bos < 0 || eos < 0)
        return tokenizerError(vocab.string(), "has no \"<s>\" or \"</s>\" token");
    // BART's tokenizer.json lists these as added tokens, read as themselves in the text.
    Tokenizer t(g);
    t.setSpecials({bos}, {eos}, "bart",
                  textSpecials(g, {"<s>", "<pad>", "</s>", "<unk>", "<mask>"}));
    return Seq2SeqTokenizers{t, t};
}

}  // namespace

Loaded<Seq2SeqTokenizers> loadSeq2SeqTokenizers(const std::filesystem::path& folder,
                                                std::string_view modelType, long modelVocab)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        return failure(StatusCode::TokenizerFile, folder.string(), "",
                       "the model folder does not exist");
    Loaded<Seq2SeqTokenizers> loaded =
        modelType == "marian" ? loadMarian(folder)
        : modelType == "t5"   ? loadT5(folder)
        : modelType == "bart"
            ? loadBart(folder)
            : Loaded<Seq2SeqTokenizers>(failure(StatusCode::TokenizerFile, folder.string(), "",
                                                notEncoderDecoder(modelType)));
    const auto* t = std::get_if<Seq2SeqTokenizers>(&loaded);
    if (t == nullptr || modelVocab <= 0) return loaded;
    const bool spiece = fileThere(folder / "spiece.model");
    const std::string file = (folder / (modelType != "t5" ? "vocab.json"
                                        : spiece          ? "spiece.model"
                                                          : "tokenizer.json"))
                                 .string();
    for (const Tokenizer* side : {&t->source, &t->target})
        if (auto err = checkTokenizerFits(*side, modelVocab, file)) return *err;
    return loaded;
}

}  // namespace attn::tok
