// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/bert_tokenizer.h"

#include <algorithm>
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

namespace {

// The characters of `chars` [begin, end) as UTF-8, with the span of all of them.
BertTokenizer::Word wordOf(const AlignedChars& chars, std::size_t begin, std::size_t end,
                           bool special)
{
    return {unicode::encodeUtf8(std::u32string_view(chars.cps).substr(begin, end - begin)),
            spanOf(chars.from, begin, end), special};
}

// A word without its non-spacing marks, after NFD (_run_strip_accents).
AlignedChars stripAccents(const AlignedChars& word)
{
    const AlignedChars decomposed = transformAligned(word, unicode::nfd);
    AlignedChars out;
    for (std::size_t k = 0; k < decomposed.cps.size(); ++k) {
        if (unicode::isNonspacingMark(decomposed.cps[k])) continue;
        out.cps.push_back(decomposed.cps[k]);
        out.from.push_back(decomposed.from[k]);
    }
    return out;
}

}  // namespace

// _clean_text and _tokenize_chinese_chars: each character of the chunk lower-cased (when asked),
// control characters, NUL and U+FFFD dropped (and logged), white space made a space, CJK
// ideographs given a space on either side.
AlignedChars BertTokenizer::cleanChunk(std::string_view chunk, std::size_t offset,
                                       DropLog* log) const
{
    const AlignedChars in = alignInputChars(chunk);
    AlignedChars out;
    for (std::size_t k = 0; k < in.cps.size(); ++k) {
        const Span span{static_cast<std::uint32_t>(in.from[k].begin + offset),
                        static_cast<std::uint32_t>(in.from[k].end + offset)};
        const char32_t c0 = in.cps[k];
        const bool ascii = c0 < 0x80;
        const std::u32string one(
            1, ascii && options_.lowerCase && c0 >= U'A' && c0 <= U'Z' ? c0 - U'A' + U'a' : c0);
        for (const char32_t cp : options_.lowerCase && !ascii ? lowerPerCharacter(one) : one) {
            if (cp == 0 || cp == 0xFFFD || isBertControl(cp)) {
                if (log) log->add(span, Dropped::Fate::Omitted);
                continue;
            }
            const bool cjk = options_.tokenizeChineseChars && isCjk(cp);
            for (const char32_t c : cjk ? std::u32string{U' ', cp, U' '}
                                        : std::u32string(1, isBertWhitespace(cp) ? U' ' : cp)) {
                out.cps.push_back(c);
                out.from.push_back(span);
            }
        }
    }
    return out;
}

void BertTokenizer::basicTokenizeChunk(std::string_view chunk, std::size_t offset,
                                       std::vector<Word>& out, DropLog* log) const
{
    const AlignedChars cleaned = cleanChunk(chunk, offset, log);
    const bool strip = options_.lowerCase ? options_.stripAccents.value_or(true)
                                          : options_.stripAccents.value_or(false);
    // str.split() then NFC per word: the same as NFC first, since white space never composes.
    for (std::size_t i = 0; i < cleaned.cps.size();) {
        while (i < cleaned.cps.size() && unicode::isPythonSpace(cleaned.cps[i])) ++i;
        std::size_t j = i;
        while (j < cleaned.cps.size() && !unicode::isPythonSpace(cleaned.cps[j])) ++j;
        if (j == i) break;
        AlignedChars word;
        word.cps = cleaned.cps.substr(i, j - i);
        word.from.assign(cleaned.from.begin() + static_cast<std::ptrdiff_t>(i),
                         cleaned.from.begin() + static_cast<std::ptrdiff_t>(j));
        i = j;
        // NFC, lower() (the chunk is lower-cased already) and accent stripping leave ASCII as
        // it is.
        const bool ascii =
            std::all_of(word.cps.begin(), word.cps.end(), [](char32_t c) { return c < 0x80; });
        if (!ascii) word = transformAligned(word, unicode::nfc);
        const Word whole = wordOf(word, 0, word.cps.size(), true);
        if (std::find(specials_.begin(), specials_.end(), whole.text) != specials_.end()) {
            out.push_back(whole);
            continue;
        }
        if (options_.lowerCase && !ascii) word = transformAligned(word, unicode::toLowerPython);
        if (strip && !ascii) word = stripAccents(word);
        // _run_split_on_punc
        std::size_t start = 0;
        for (std::size_t k = 0; k < word.cps.size(); ++k) {
            if (!isBertPunctuation(word.cps[k])) continue;
            if (k > start) out.push_back(wordOf(word, start, k, false));
            out.push_back(wordOf(word, k, k + 1, false));
            start = k + 1;
        }
        if (start < word.cps.size()) out.push_back(wordOf(word, start, word.cps.size(), false));
    }
}

std::vector<BertTokenizer::Word> BertTokenizer::words(std::string_view utf8, DropLog* log) const
{
    // PreTrainedTokenizer.tokenize: cut out special tokens written in the text (earliest
    // position first; none of BERT's is a prefix of another), tokenize the pieces between.
    std::vector<Word> out;
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
        basicTokenizeChunk(utf8.substr(start, i - start), start, out, log);
        out.push_back(
            {*found,
             {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + found->size())},
             true});
        i += found->size();
        start = i;
    }
    basicTokenizeChunk(utf8.substr(start), start, out, log);
    return out;
}

std::vector<std::string> BertTokenizer::basicTokenize(std::string_view utf8) const
{
    std::vector<std::string> out;
    for (Word& w : words(utf8, nullptr)) out.push_back(std::move(w.text));
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
    for (const Word& word : words(utf8, nullptr)) {
        if (word.special)
            out.push_back(word.text);  // kept whole; encode() maps it to [UNK] if absent
        else
            wordPiece(word.text, out);
    }
    return out;
}

std::vector<int> BertTokenizer::encode(std::string_view utf8) const
{
    std::vector<Dropped> dropped;
    return encode(utf8, dropped);
}

std::vector<int> BertTokenizer::encode(std::string_view utf8, std::vector<Dropped>& dropped) const
{
    DropLog log;
    std::vector<int> ids{cls_};
    std::vector<std::string> pieces;
    for (const Word& word : words(utf8, &log)) {
        pieces.clear();
        if (word.special)
            pieces.push_back(word.text);
        else
            wordPiece(word.text, pieces);
        for (const std::string& p : pieces) {
            const int id = idOf(p);
            // A word WordPiece could not split, or a special token the vocabulary lacks (not
            // [UNK] written in the text).
            if (id == unk_ && !(word.special && word.text == piece(unk_)))
                log.add(word.span, Dropped::Fate::Unknown);
            ids.push_back(id);
        }
    }
    ids.push_back(sep_);
    dropped = log.report(utf8);
    return ids;
}

}  // namespace attn::tok
