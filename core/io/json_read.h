// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one strict JSON reader for files from outside (config.json, tokenizer files, sessions,
// lessons): nlohmann's parser driven through its SAX interface, so that what a tree-building
// parser would silently accept or pay for is refused as it is met, before the tree grows:
// nesting deeper than a limit, a key twice in one object (a parser keeps one of them, so a file
// would mean something else to another reader), more values than a limit, a tree that would
// take more memory than a limit, a number that does not fit a double (1e999, or 1e-400, which
// would silently read as 0), and a UTF-16 or UTF-32 text. nlohmann itself refuses ill-formed UTF-8
// and skips a UTF-8 byte-order mark.

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

namespace attn::io {

struct JsonLimits {
    int maxDepth = 64;                 // files from outside nest a handful of levels
    std::size_t maxValues = 1u << 26;  // values of any kind, containers included
    // The memory the tree may take, counted as it grows (treeBytes below): a value costs far
    // more in the tree than in the text (`{}` is 2 bytes of text and about 80 of tree), so a
    // file within its size limit could otherwise take many times that in memory.
    std::size_t maxTreeBytes = std::size_t{1} << 30;
};

// What the reader counts for the tree, as glibc allocates it: 16 bytes a value, 64 more for an
// object and 64 for each of its members (a map node and its key; plus the key's bytes beyond
// 15), 40 more for a list and 16 for each slot (a list's room grows by doubling), 48 more for
// a string (plus its bytes beyond 15). Streamed elements count too: the bound holds for the
// peak of what a parse ever holds.
struct JsonCosts {
    static constexpr std::size_t value = 16, object = 64, member = 64, list = 40, slot = 16,
                                 string = 48, inlineChars = 15;
};

struct JsonProblem {
    enum class Kind {
        None,
        Syntax,
        InvalidUtf8,
        TooDeep,
        DuplicateKey,
        TooManyValues,
        TooLarge,     // the tree would take more than maxTreeBytes
        NumberRange,  // a number beyond double's range, or so small it would read as 0
        Utf16,
        Utf32,
        Refused  // a JsonStream's taker refused an element
    };
    Kind kind = Kind::None;
    std::string path;      // the JSON path where it was met, lists from 1 ("options.mask[3]")
    std::string message;   // plain English, without the path
    std::size_t byte = 0;  // about where it was met (the parser reads a little ahead)
    int line = 1;          // the line of `byte`, from 1

    bool ok() const { return kind == Kind::None; }
};

// Parses `text` into `out` under `limits`; `out` is left null on failure.
JsonProblem parseJson(std::string_view text, nlohmann::json& out, const JsonLimits& limits = {});

// A container whose elements are handed to `take` one by one as they are read, instead of being
// kept in the tree (which then holds it empty): a tokenizer.json's vocabulary and merges, 150,000
// entries each, cost more as tree nodes than in the reader's own tables. The keys of a streamed
// object are not checked for duplicates: that is for the taker to refuse.
struct JsonStream {
    std::string path;  // the keys from the top, joined by '.' ("model.vocab"); not in a list
    // The element's key (null in a list), its index from 0, and its value (a whole tree when
    // it is itself a container); both may be moved from when it returns true. Returning false
    // stops the parse with a Refused problem whose message is `message`.
    std::function<bool(std::string* key, std::size_t index, nlohmann::json& value,
                       std::string& message)>
        take;
};

// parseJson, with the containers at the streams' paths handed over as they are read.
JsonProblem parseJson(std::string_view text, nlohmann::json& out,
                      std::span<const JsonStream> streams, const JsonLimits& limits = {});

// The lengths of the lists reached through object keys alone, up to `levels` keys deep, by
// path ("target.tokens" -> 30000): what a reader checks against its limits before a tree of
// every value is built. One pass that builds nothing; false if the text is not JSON.
bool jsonListLengths(std::string_view text, int levels, std::map<std::string, std::size_t>& out);

// "options.mask[3]: nested more than 64 levels deep" / the message alone at the top.
std::string describe(const JsonProblem& problem);

}  // namespace attn::io
