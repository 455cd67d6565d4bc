// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/json_read.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <span>
#include <vector>

namespace attn::io {

namespace {

using nlohmann::json;

// A pointer into the text that tells how far the parser has read, so that a problem met in a
// SAX event has a position (nlohmann reports one for syntax errors only).
struct CountingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* at = nullptr;
    const char** furthest = nullptr;

    reference operator*() const { return *at; }
    CountingIterator& operator++()
    {
        ++at;
        if (furthest) *furthest = at;
        return *this;
    }
    CountingIterator operator++(int)
    {
        CountingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const CountingIterator& other) const { return at == other.at; }
    bool operator!=(const CountingIterator& other) const { return at != other.at; }
};

// Builds the tree as nlohmann's own DOM parser does, checking each event first.
class StrictBuilder : public nlohmann::json_sax<json> {
public:
    StrictBuilder(json& root, const JsonLimits& limits, JsonProblem& problem, const char* begin,
                  const char* const* read, std::span<const JsonStream> streams)
        : root_(root),
          limits_(limits),
          problem_(problem),
          begin_(begin),
          read_(read),
          streams_(streams)
    {
        // A streamed element is built in its container's Level: the levels must not move.
        levels_.reserve(static_cast<std::size_t>(std::max(0, limits.maxDepth)) + 1);
    }

    bool null() override { return value(nullptr); }
    bool boolean(bool v) override { return value(v); }
    bool number_integer(number_integer_t v) override { return value(v); }
    bool number_unsigned(number_unsigned_t v) override { return value(v); }
    bool number_float(number_float_t v, const string_t& text) override
    {
        if (!std::isfinite(v) || (v == 0.0 && nonZeroDigits(text)))
            return fail(JsonProblem::Kind::NumberRange,
                        text.substr(0, 40) + " is out of the range of a double" +
                            (v == 0.0 ? " (it would read as 0)" : ""));
        return value(v);
    }
    bool string(string_t& v) override
    {
        return grow(JsonCosts::string + extra(v.size())) && value(std::move(v));
    }
    bool binary(binary_t& v) override { return value(json::binary(std::move(v))); }

    bool start_object(std::size_t) override
    {
        return grow(JsonCosts::object) && open(json::object());
    }
    bool start_array(std::size_t) override { return grow(JsonCosts::list) && open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override
    {
        if (!grow(JsonCosts::member + extra(k.size()))) return false;
        Level& top = levels_.back();
        if (top.stream != nullptr) {
            top.key = std::move(k);
            return true;
        }
        // One look-up, not two: a tokenizer.json's vocabulary is an object of 150,000 keys.
        const auto [at, inserted] = top.node->get_ref<json::object_t&>().try_emplace(k);
        top.key = std::move(k);
        if (!inserted)
            return fail(JsonProblem::Kind::DuplicateKey,
                        "appears twice in the same object; each key may appear only once");
        top.slot = &at->second;
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override
    {
        if (problem_.ok()) {
            problem_.path = path();
            problem_.byte = position;
            // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1,
            // column 5: ..."; the part after the bracket is the reader's.
            std::string what = e.what();
            if (const std::size_t close = what.find("] "); close != std::string::npos)
                what = what.substr(close + 2);
            problem_.message = what;
            problem_.kind = what.find("ill-formed UTF-8") != std::string::npos
                                ? JsonProblem::Kind::InvalidUtf8
                                : JsonProblem::Kind::Syntax;
        }
        return false;
    }

private:
    struct Level {
        json* node = nullptr;
        json* slot = nullptr;  // where an object's next value goes
        std::string key;
        std::size_t index = 0;  // an array's next element
        // The keys from the top when only keys lead here ("model.vocab"), for the streams.
        std::string keyPath;
        bool keyed = false;
        const JsonStream* stream = nullptr;  // its elements go to stream->take
        json pending;                        // a streamed element being read
    };

    // Whether the digits before the exponent are not all 0.
    static bool nonZeroDigits(const string_t& text)
    {
        for (const char c : text) {
            if (c == 'e' || c == 'E') break;
            if (c >= '1' && c <= '9') return true;
        }
        return false;
    }

    static std::size_t extra(std::size_t chars)
    {
        return chars > JsonCosts::inlineChars ? chars + 1 : 0;
    }

    // Counts what the tree grows by; refuses past the limit.
    bool grow(std::size_t bytes)
    {
        bytes_ += bytes;
        if (bytes_ <= limits_.maxTreeBytes) return true;
        std::string message = "would take more than ";
        message += std::to_string(limits_.maxTreeBytes >> 20);
        message += " MiB of memory to read (";
        message += std::to_string(values_);
        message += " values so far)";
        return fail(JsonProblem::Kind::TooLarge, std::move(message));
    }

    bool count()
    {
        const bool inList = !levels_.empty() && levels_.back().node->is_array();
        if (!grow(JsonCosts::value + (inList ? JsonCosts::slot : 0))) return false;
        if (++values_ <= limits_.maxValues) return true;
        std::string message = "holds more than ";
        message += std::to_string(limits_.maxValues);
        message += " values";
        return fail(JsonProblem::Kind::TooManyValues, std::move(message));
    }

    json* place(json&& v)
    {
        if (levels_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Level& top = levels_.back();
        if (top.stream != nullptr) {
            if (top.node->is_array()) ++top.index;
            top.pending = std::move(v);
            return &top.pending;
        }
        if (top.node->is_array()) {
            ++top.index;
            top.node->push_back(std::move(v));
            return &top.node->back();
        }
        *top.slot = std::move(v);
        return top.slot;
    }

    template <class T>
    bool value(T&& v)
    {
        if (!count()) return false;
        place(json(std::forward<T>(v)));
        return levels_.empty() || levels_.back().stream == nullptr || deliver(levels_.back());
    }

    // Hands the element just read to the stream of its container.
    bool deliver(Level& l)
    {
        const bool list = l.node->is_array();
        std::string message;
        if (l.stream->take(list ? nullptr : &l.key, list ? l.index - 1 : l.index++, l.pending,
                           message)) {
            l.pending = nullptr;
            return true;
        }
        if (list) --l.index;  // the path names the element refused, not the next one
        return fail(JsonProblem::Kind::Refused, std::move(message));
    }

    // The level of a container opened where the parser is: its key path, and its stream if
    // one has that path.
    Level opened(json* node) const
    {
        Level l;
        l.node = node;
        if (streams_.empty()) return l;
        if (levels_.empty()) {
            l.keyed = true;
        } else if (const Level& parent = levels_.back();
                   parent.keyed && parent.stream == nullptr && !parent.node->is_array()) {
            l.keyed = true;
            l.keyPath = parent.keyPath.empty() ? parent.key : parent.keyPath + '.' + parent.key;
        }
        if (l.keyed)
            for (const JsonStream& s : streams_)
                if (s.path == l.keyPath) l.stream = &s;
        return l;
    }

    bool open(json&& container)
    {
        if (!count()) return false;
        if (static_cast<int>(levels_.size()) >= limits_.maxDepth) {
            std::string message = "nested more than ";
            message += std::to_string(limits_.maxDepth);
            message += " levels deep";
            return fail(JsonProblem::Kind::TooDeep, std::move(message));
        }
        json* node = place(std::move(container));
        levels_.push_back(opened(node));
        return true;
    }

    bool close()
    {
        levels_.pop_back();
        return levels_.empty() || levels_.back().stream == nullptr || deliver(levels_.back());
    }

    // The path of the value being read: each enclosing array's element in hand (the innermost
    // one's next), each object's current key.
    std::string path() const
    {
        std::string out;
        for (std::size_t i = 0; i < levels_.size(); ++i) {
            const Level& l = levels_[i];
            const bool innermost = i + 1 == levels_.size();
            if (l.node->is_array()) {
                out += '[';
                // Counted from 1, as every message counts.
                out += std::to_string(innermost ? l.index + 1 : l.index);
                out += ']';
            } else if (!l.key.empty()) {
                if (!out.empty()) out += '.';
                out += l.key;
            }
        }
        return out;
    }

    bool fail(JsonProblem::Kind kind, std::string message)
    {
        problem_.byte = read_ ? static_cast<std::size_t>(*read_ - begin_) : 0;
        problem_.kind = kind;
        problem_.path = path();
        problem_.message = std::move(message);
        return false;
    }

    json& root_;
    const JsonLimits& limits_;
    JsonProblem& problem_;
    const char* begin_;
    const char* const* read_;
    std::span<const JsonStream> streams_;
    std::vector<Level> levels_;
    std::size_t values_ = 0;
    std::size_t bytes_ = 0;
};

// Counts the elements of the lists reached through keys alone; builds nothing.
class ListCounter : public nlohmann::json_sax<json> {
public:
    ListCounter(int levels, std::map<std::string, std::size_t>& out) : levels_(levels), out_(out) {}

    bool null() override { return element(); }
    bool boolean(bool) override { return element(); }
    bool number_integer(number_integer_t) override { return element(); }
    bool number_unsigned(number_unsigned_t) override { return element(); }
    bool number_float(number_float_t, const string_t&) override { return element(); }
    bool string(string_t&) override { return element(); }
    bool binary(binary_t&) override { return element(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool key(string_t& k) override
    {
        stack_.back().key = k;
        return true;
    }
    bool end_object() override
    {
        stack_.pop_back();
        return true;
    }
    bool end_array() override
    {
        if (stack_.back().keyed) out_[stack_.back().path] = stack_.back().count;
        stack_.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override
    {
        return false;
    }

private:
    struct Frame {
        bool array = false;
        bool keyed = false;  // reached through object keys alone, within the levels
        int keys = 0;
        std::string path;
        std::string key;  // an object's current key
        std::size_t count = 0;
    };

    bool element()
    {
        if (!stack_.empty() && stack_.back().array) ++stack_.back().count;
        return true;
    }

    bool open(bool array)
    {
        element();
        // Deeper than any list it counts could be: the strict parse names the nesting.
        if (stack_.size() >= 64) return false;
        Frame f;
        f.array = array;
        if (stack_.empty()) {
            f.keyed = !array;
        } else if (const Frame& parent = stack_.back(); !parent.array && parent.keyed) {
            f.keys = parent.keys + 1;
            f.keyed = f.keys <= levels_;
            f.path = parent.path;
            if (!f.path.empty()) f.path += '.';
            f.path += parent.key;
        }
        stack_.push_back(std::move(f));
        return true;
    }

    int levels_;
    std::map<std::string, std::size_t>& out_;
    std::vector<Frame> stack_;
};

}  // namespace

JsonProblem parseJson(std::string_view text, nlohmann::json& out, const JsonLimits& limits)
{
    return parseJson(text, out, {}, limits);
}

JsonProblem parseJson(std::string_view text, nlohmann::json& out,
                      std::span<const JsonStream> streams, const JsonLimits& limits)
{
    out = nullptr;
    JsonProblem problem;
    const auto starts = [&text](std::string_view bom) { return text.substr(0, bom.size()) == bom; };
    using namespace std::string_view_literals;
    if (starts("\x00\x00\xFE\xFF"sv) || starts("\xFF\xFE\x00\x00"sv)) {
        problem.kind = JsonProblem::Kind::Utf32;
        problem.message = "is encoded as UTF-32; it must be UTF-8";
        return problem;
    }
    if (starts("\xFE\xFF"sv) || starts("\xFF\xFE"sv)) {
        problem.kind = JsonProblem::Kind::Utf16;
        problem.message = "is encoded as UTF-16; it must be UTF-8";
        return problem;
    }
    nlohmann::json root;
    const char* read = text.data();
    StrictBuilder builder(root, limits, problem, text.data(), &read, streams);
    const bool parsed =
        nlohmann::json::sax_parse(CountingIterator{text.data(), &read},
                                  CountingIterator{text.data() + text.size(), nullptr}, &builder);
    for (std::size_t i = 0; i < std::min(problem.byte, text.size()); ++i)
        problem.line += text[i] == '\n' ? 1 : 0;
    if (!parsed || !problem.ok()) {
        if (problem.ok()) {
            problem.kind = JsonProblem::Kind::Syntax;
            problem.message = "not valid JSON";  // not reached: a failed parse reports
        }
        return problem;
    }
    out = std::move(root);
    return problem;
}

bool jsonListLengths(std::string_view text, int levels, std::map<std::string, std::size_t>& out)
{
    out.clear();
    ListCounter counter(levels, out);
    return nlohmann::json::sax_parse(text.begin(), text.end(), &counter);
}

std::string describe(const JsonProblem& problem)
{
    return problem.path.empty() ? problem.message : problem.path + ": " + problem.message;
}

}  // namespace attn::io
