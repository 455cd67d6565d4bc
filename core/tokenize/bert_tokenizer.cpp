// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/bert_tokenizer.h"

#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/tokenize/unicode.h"

namespace attn::tok {
namespace {

using nlohmann::json;

const char* const kSpecialTokens[] = {"[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"};

bool isBertWhitespace(char32_t cp)
{
    return cp == U' ' || cp == U'\t' || cp == U'\n' || cp == U'\r' || unicode::isSpaceSeparator(cp);
}

bool isBertControl(char32_t cp)
{
    if (cp == U'\t' || cp == U'\n' || cp == U'\r') return false;
    return unicode::isOther(cp);
}

bool isBertPunctuation(char32_t cp)
{
    if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
        (cp >= 123 && cp <= 126)) {
        return true;
    }
    return unicode::isPunctuation(cp);
}

// The CJK Unified Ideographs blocks BERT puts spaces around (tokenization_bert.py).
bool isCjk(char32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
           (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

// Python's str.lower() applied one character at a time, as PreTrainedTokenizer.tokenize's
// lower-casing pass does (its pattern feeds single characters to lower(), so the Greek
// final-sigma context never applies; the Rust fast tokenizer lower-cases per character too).
std::u32string lowerPerCharacter(std::u32string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    for (char32_t cp : text) out += unicode::toLowerPython(std::u32string_view(&cp, 1));
    return out;
}

// Python's str.split() with no argument: runs of str.isspace() characters. After _clean_text
// these are ' ' and the line/paragraph separators U+2028/U+2029 (Zl, Zp), which cleaning keeps.
std::vector<std::u32string> splitWhitespace(const std::u32string& text)
{
    std::vector<std::u32string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && unicode::isPythonSpace(text[i])) ++i;
        std::size_t j = i;
        while (j < text.size() && !unicode::isPythonSpace(text[j])) ++j;
        if (j > i) words.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return words;
}

}  // namespace

Loaded<BertOptions> BertTokenizer::optionsFromConfigJson(std::string_view text,
                                                         const std::string& name)
{
    json root;
    if (const io::JsonProblem p = io::parseJson(text, root); !p.ok())
        return tokenizerError(name, "not valid JSON: " + io::describe(p));
    if (!root.is_object()) return tokenizerError(name, "must be a JSON object");
    BertOptions options;
    auto readBool = [&](const char* key, bool& out) -> std::optional<attn::Status> {
        if (!root.contains(key) || root[key].is_null()) return std::nullopt;
        if (!root[key].is_boolean()) {
            return tokenizerError(name, std::string("\"") + key + "\" must be true or false");
        }
        out = root[key].get<bool>();
        return std::nullopt;
    };
    if (auto err = readBool("do_lower_case", options.lowerCase)) return *err;
    if (auto err = readBool("tokenize_chinese_chars", options.tokenizeChineseChars)) return *err;
    if (root.contains("strip_accents") && !root["strip_accents"].is_null()) {
        bool strip = false;
        if (auto err = readBool("strip_accents", strip)) return *err;
        options.stripAccents = strip;
    }
    return options;
}

Loaded<BertTokenizer> BertTokenizer::fromFiles(const std::filesystem::path& vocabTxt,
                                               const std::filesystem::path& tokenizerConfigJson)
{
    BertOptions options;
    if (!tokenizerConfigJson.empty()) {
        std::string configText;
        if (auto err = readWholeFile(tokenizerConfigJson, configText)) return *err;
        auto parsed = optionsFromConfigJson(configText, tokenizerConfigJson.string());
        if (auto* err = std::get_if<attn::Status>(&parsed)) return *err;
        options = std::get<BertOptions>(parsed);
    }
    std::string text;
    if (auto err = readWholeFile(vocabTxt, text, kMaxVocabFileBytes)) return *err;
    return fromVocabText(text, options, vocabTxt.string());
}

Loaded<BertTokenizer> BertTokenizer::fromVocabText(std::string_view text, BertOptions options,
                                                   const std::string& name)
{
    if (text.empty()) return tokenizerError(name, "the file is empty");
    if (auto err = checkLineCount(text, name, "a vocabulary")) return *err;
    BertTokenizer t;
    t.options_ = options;
    std::size_t pos = 0;
    std::size_t lineNo = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        bool invalid = false;
        (void)unicode::decodeUtf8(line, &invalid);
        if (invalid) {
            return tokenizerError(name, "line " + std::to_string(lineNo) + " is not valid UTF-8");
        }
        const int id = static_cast<int>(t.pieces_.size());
        t.pieces_.emplace_back(line);
        t.vocab_[std::string(line)] = id;  // a repeated token keeps its last line, as in HF
    }
    auto require = [&](const char* token, int& out) -> std::optional<attn::Status> {
        const auto it = t.vocab_.find(token);
        if (it == t.vocab_.end()) {
            return tokenizerError(name, std::string("the vocabulary has no ") + token + " token");
        }
        out = it->second;
        return std::nullopt;
    };
    if (auto err = require("[UNK]", t.unk_)) return *err;
    if (auto err = require("[CLS]", t.cls_)) return *err;
    if (auto err = require("[SEP]", t.sep_)) return *err;
    if (const auto it = t.vocab_.find("[PAD]"); it != t.vocab_.end()) t.pad_ = it->second;
    if (const auto it = t.vocab_.find("[MASK]"); it != t.vocab_.end()) t.mask_ = it->second;
    for (const char* s : kSpecialTokens) t.specials_.emplace_back(s);
    return t;
}

const std::string& BertTokenizer::piece(int id) const
{
    static const std::string empty;
    if (id < 0 || static_cast<std::size_t>(id) >= pieces_.size()) return empty;
    return pieces_[static_cast<std::size_t>(id)];
}

int BertTokenizer::idOf(std::string_view p) const
{
    const auto it = vocab_.find(std::string(p));
    return it == vocab_.end() ? unk_ : it->second;
}

bool BertTokenizer::contains(std::string_view p) const
{
    return vocab_.count(std::string(p)) != 0;
}

void BertTokenizer::basicTokenizeChunk(std::string_view chunk, std::vector<std::string>& out) const
{
    std::u32string text = unicode::decodeUtf8(chunk);
    if (options_.lowerCase) text = lowerPerCharacter(text);
    // _clean_text
    std::u32string cleaned;
    cleaned.reserve(text.size());
    for (char32_t cp : text) {
        if (cp == 0 || cp == 0xFFFD || isBertControl(cp)) continue;
        cleaned.push_back(isBertWhitespace(cp) ? U' ' : cp);
    }
    // _tokenize_chinese_chars
    if (options_.tokenizeChineseChars) {
        std::u32string spaced;
        spaced.reserve(cleaned.size());
        for (char32_t cp : cleaned) {
            if (isCjk(cp)) {
                spaced.push_back(U' ');
                spaced.push_back(cp);
                spaced.push_back(U' ');
            } else {
                spaced.push_back(cp);
            }
        }
        cleaned.swap(spaced);
    }
    const std::u32string normalized = unicode::nfc(cleaned);
    const bool strip = options_.lowerCase ? options_.stripAccents.value_or(true)
                                          : options_.stripAccents.value_or(false);
    for (std::u32string word : splitWhitespace(normalized)) {
        const std::string utf8Word = unicode::encodeUtf8(word);
        bool special = false;
        for (const std::string& s : specials_) special = special || s == utf8Word;
        if (special) {
            out.push_back(utf8Word);
            continue;
        }
        if (options_.lowerCase) word = unicode::toLowerPython(word);
        if (strip) {
            std::u32string stripped;
            for (char32_t cp : unicode::nfd(word)) {
                if (!unicode::isNonspacingMark(cp)) stripped.push_back(cp);
            }
            word.swap(stripped);
        }
        // _run_split_on_punc
        std::u32string current;
        for (char32_t cp : word) {
            if (isBertPunctuation(cp)) {
                if (!current.empty()) out.push_back(unicode::encodeUtf8(current));
                current.clear();
                out.push_back(unicode::encodeUtf8(std::u32string_view(&cp, 1)));
            } else {
                current.push_back(cp);
            }
        }
        if (!current.empty()) out.push_back(unicode::encodeUtf8(current));
    }
}

std::vector<std::string> BertTokenizer::basicTokenize(std::string_view utf8) const
{
    // PreTrainedTokenizer.tokenize: cut out special tokens written in the text (earliest
    // position first; none of BERT's is a prefix of another), tokenize the pieces between.
    std::vector<std::string> out;
    std::size_t start = 0;
    std::size_t i = 0;
    while (i < utf8.size()) {
        const std::string* found = nullptr;
        if (utf8[i] == '[') {
            for (const std::string& s : specials_) {
                if (utf8.compare(i, s.size(), s) == 0) {
                    found = &s;
                    break;
                }
            }
        }
        if (!found) {
            ++i;
            continue;
        }
        basicTokenizeChunk(utf8.substr(start, i - start), out);
        out.push_back(*found);
        i += found->size();
        start = i;
    }
    basicTokenizeChunk(utf8.substr(start), out);
    return out;
}

void BertTokenizer::wordPiece(const std::string& word, std::vector<std::string>& out) const
{
    const std::u32string chars = unicode::decodeUtf8(word);
    if (chars.size() > options_.maxInputCharsPerWord) {
        out.push_back(pieces_[static_cast<std::size_t>(unk_)]);
        return;
    }
    std::vector<std::string> pieces;
    std::size_t start = 0;
    while (start < chars.size()) {
        std::size_t end = chars.size();
        std::string match;
        bool found = false;
        while (start < end) {
            std::string candidate = start > 0 ? "##" : "";
            candidate += unicode::encodeUtf8(std::u32string_view(chars).substr(start, end - start));
            if (vocab_.count(candidate)) {
                match = std::move(candidate);
                found = true;
                break;
            }
            --end;
        }
        if (!found) {
            out.push_back(pieces_[static_cast<std::size_t>(unk_)]);
            return;
        }
        pieces.push_back(std::move(match));
        start = end;
    }
    for (std::string& p : pieces) out.push_back(std::move(p));
}

std::vector<std::string> BertTokenizer::tokenize(std::string_view utf8) const
{
    std::vector<std::string> out;
    for (const std::string& word : basicTokenize(utf8)) {
        bool special = false;
        for (const std::string& s : specials_) special = special || s == word;
        if (special) {
            out.push_back(word);  // kept whole; encode() maps it to [UNK] if absent
        } else {
            wordPiece(word, out);
        }
    }
    return out;
}

std::vector<int> BertTokenizer::encode(std::string_view utf8) const
{
    std::vector<int> ids{cls_};
    for (const std::string& p : tokenize(utf8)) ids.push_back(idOf(p));
    ids.push_back(sep_);
    return ids;
}

}  // namespace attn::tok
