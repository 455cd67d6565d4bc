// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/fixture_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#ifndef ATTNLAB_FIXTURE_DIR
#error "ATTNLAB_FIXTURE_DIR must name tests/reference/fixtures (set by tests/core/CMakeLists.txt)"
#endif

namespace attn_test {
namespace {

constexpr int kFormatVersion = 1;

struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Which blocks a head may carry, by the suffix after "heads.I." / "expected.heads.I.".
const std::set<std::string>& inputHeadMatrices()
{
    static const std::set<std::string> names = {"W_Q", "W_K", "W_V", "W_a", "U_a"};
    return names;
}
const std::set<std::string>& expectedHeadMatrices()
{
    static const std::set<std::string> names = {"Q",      "K",       "V",     "scores",
                                                "scaled", "weights", "output"};
    return names;
}

class Parser {
public:
    Parser(std::istream& in, std::string source, ReferenceFixture& fixture)
        : in_(in), source_(std::move(source)), fx_(fixture)
    {
    }

    void run()
    {
        std::vector<std::string> tokens;
        if (!nextLine(tokens)) fail("empty file: no 'attnlab-reference 1' header");
        if (tokens.size() != 2 || tokens[0] != "attnlab-reference") {
            fail("first line must be 'attnlab-reference " + std::to_string(kFormatVersion) + "'");
        }
        if (parseLong(tokens[1], "format version") != kFormatVersion) {
            fail("unsupported format version " + tokens[1] + " (this reader knows " +
                 std::to_string(kFormatVersion) + ")");
        }
        while (nextLine(tokens)) directive(tokens);
        lineNo_ = 0;  // end-of-file checks name no line
        finish();
    }

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        std::ostringstream out;
        out << source_;
        if (lineNo_ > 0) out << ':' << lineNo_;
        out << ": " << message;
        throw ParseError(out.str());
    }

    // Next line that is neither blank nor a comment, split on whitespace.
    bool nextLine(std::vector<std::string>& tokens)
    {
        std::string line;
        while (std::getline(in_, line)) {
            ++lineNo_;
            tokens.clear();
            std::istringstream words(line);
            std::string word;
            while (words >> word) tokens.push_back(word);
            if (tokens.empty() || tokens.front().front() == '#') continue;
            return true;
        }
        if (in_.bad()) fail("read error");
        return false;
    }

    long parseLong(const std::string& token, const char* what) const
    {
        long value = 0;
        const char* end = token.data() + token.size();
        auto [ptr, ec] = std::from_chars(token.data(), end, value);
        if (ec != std::errc{} || ptr != end) fail(std::string(what) + ": not an integer: " + token);
        return value;
    }

    long parseDim(const std::string& token, const char* what) const
    {
        const long value = parseLong(token, what);
        if (value <= 0) fail(std::string(what) + " must be positive, got " + token);
        return value;
    }

    double parseReal(const std::string& token, const std::string& what) const
    {
        double value = 0.0;
        const char* end = token.data() + token.size();
        auto [ptr, ec] = std::from_chars(token.data(), end, value);
        if (ec != std::errc{} || ptr != end) fail(what + ": not a number: '" + token + "'");
        if (!std::isfinite(value)) fail(what + ": non-finite number: '" + token + "'");
        return value;
    }

    bool parseBit(const std::string& token, const std::string& what) const
    {
        if (token == "0") return false;
        if (token == "1") return true;
        fail(what + ": expected 0 or 1, got '" + token + "'");
    }

    // Reads one data line of exactly `count` tokens.
    std::vector<std::string> dataLine(const std::string& what, long count)
    {
        std::vector<std::string> tokens;
        if (!nextLine(tokens)) fail("unexpected end of file in " + what);
        if (static_cast<long>(tokens.size()) != count) {
            fail(what + ": expected " + std::to_string(count) + " values, got " +
                 std::to_string(tokens.size()));
        }
        return tokens;
    }

    void markSeen(const std::string& kind, const std::string& name)
    {
        if (!seen_.insert(kind + " " + name).second) fail("duplicate " + kind + " '" + name + "'");
    }

    void directive(const std::vector<std::string>& t)
    {
        const std::string& kind = t[0];
        if (kind == "option") {
            if (t.size() != 3) fail("expected 'option KEY VALUE'");
            option(t[1], t[2]);
        } else if (kind == "matrix" || kind == "mask") {
            if (t.size() != 4) fail("expected '" + kind + " NAME ROWS COLS'");
            const long rows = parseDim(t[2], "rows");
            const long cols = parseDim(t[3], "cols");
            markSeen(kind, t[1]);
            if (kind == "matrix") {
                readMatrix(t[1], rows, cols, matrixTarget(t[1]));
            } else {
                readMask(t[1], rows, cols, maskTarget(t[1]));
            }
        } else if (kind == "vector" || kind == "flags") {
            if (t.size() != 3) fail("expected '" + kind + " NAME LENGTH'");
            const long length = parseDim(t[2], "length");
            markSeen(kind, t[1]);
            if (kind == "vector") {
                readVector(t[1], length, vectorTarget(t[1]));
            } else {
                readFlags(t[1], length, flagsTarget(t[1]));
            }
        } else {
            fail("unknown directive '" + kind +
                 "' (expected option, matrix, vector, mask or flags)");
        }
    }

    void option(const std::string& key, const std::string& value)
    {
        markSeen("option", key);
        attn::AttentionInput& in = fx_.input;
        if (key == "mode") {
            static const std::map<std::string, attn::Mode> modes = {{"self", attn::Mode::Self},
                                                                    {"causal", attn::Mode::Causal},
                                                                    {"cross", attn::Mode::Cross}};
            auto it = modes.find(value);
            if (it == modes.end()) fail("option mode: expected self, causal or cross");
            in.mode = it->second;
        } else if (key == "scaling") {
            static const std::map<std::string, attn::Scaling> scalings = {
                {"none", attn::Scaling::None},
                {"sqrt_dk", attn::Scaling::SqrtDk},
                {"temperature", attn::Scaling::Temperature}};
            auto it = scalings.find(value);
            if (it == scalings.end()) fail("option scaling: expected none, sqrt_dk or temperature");
            in.scaling = it->second;
        } else if (key == "temperature") {
            in.temperature = parseReal(value, "option temperature");
        } else if (key == "score") {
            if (value == "dot") {
                in.score = attn::ScoreFunction::Dot;
            } else if (value == "additive") {
                in.score = attn::ScoreFunction::Additive;
            } else {
                fail("option score: expected dot or additive");
            }
        } else if (key == "heads") {
            const long count = parseDim(value, "option heads");
            in.heads.assign(static_cast<std::size_t>(count), attn::HeadParams{});
            fx_.heads.assign(static_cast<std::size_t>(count), ExpectedHead{});
        } else {
            fail("unknown option '" + key + "'");
        }
    }

    // "heads.I.REST" (prefix "heads.") -> I and REST; false if `name` has another prefix.
    bool splitHead(const std::string& name, const std::string& prefix, std::size_t& head,
                   std::string& rest) const
    {
        if (name.rfind(prefix, 0) != 0) return false;
        const std::size_t dot = name.find('.', prefix.size());
        if (dot == std::string::npos) fail("'" + name + "': expected " + prefix + "I.NAME");
        const long index = parseLong(name.substr(prefix.size(), dot - prefix.size()), "head index");
        if (!seen_.count("option heads")) fail("'" + name + "' before 'option heads'");
        if (index < 0 || index >= static_cast<long>(fx_.heads.size())) {
            fail("'" + name + "': head index out of range (option heads " +
                 std::to_string(fx_.heads.size()) + ")");
        }
        head = static_cast<std::size_t>(index);
        rest = name.substr(dot + 1);
        return true;
    }

    attn::Matrix& matrixTarget(const std::string& name)
    {
        attn::AttentionInput& in = fx_.input;
        if (name == "X") return in.X;
        if (name == "Y") return in.Y;
        if (name == "W_O") return in.W_O;
        if (name == "expected.concat") return fx_.concat;
        if (name == "expected.output") return fx_.output;
        std::size_t h = 0;
        std::string rest;
        if (splitHead(name, "heads.", h, rest) && inputHeadMatrices().count(rest)) {
            attn::HeadParams& p = in.heads[h];
            if (rest == "W_Q") return p.W_Q;
            if (rest == "W_K") return p.W_K;
            if (rest == "W_V") return p.W_V;
            if (rest == "W_a") return p.additive.W_a;
            return p.additive.U_a;
        }
        if (splitHead(name, "expected.heads.", h, rest) && expectedHeadMatrices().count(rest)) {
            ExpectedHead& e = fx_.heads[h];
            if (rest == "Q") return e.Q;
            if (rest == "K") return e.K;
            if (rest == "V") return e.V;
            if (rest == "scores") return e.scores;
            if (rest == "scaled") return e.scaled;
            if (rest == "weights") return e.weights;
            return e.output;
        }
        fail("unknown matrix '" + name + "'");
    }

    attn::Vector& vectorTarget(const std::string& name)
    {
        std::size_t h = 0;
        std::string rest;
        if (splitHead(name, "heads.", h, rest) && rest == "v") return fx_.input.heads[h].additive.v;
        fail("unknown vector '" + name + "'");
    }

    attn::BoolMatrix& maskTarget(const std::string& name)
    {
        if (name == "mask") {
            fx_.input.mask = attn::BoolMatrix();
            return *fx_.input.mask;
        }
        if (name == "expected.mask") return fx_.effectiveMask;
        fail("unknown mask '" + name + "'");
    }

    std::vector<bool>& flagsTarget(const std::string& name)
    {
        if (name == "expected.fully_masked") return fx_.fullyMasked;
        fail("unknown flags '" + name + "'");
    }

    void readMatrix(const std::string& name, long rows, long cols, attn::Matrix& m)
    {
        m.resize(rows, cols);
        for (long r = 0; r < rows; ++r) {
            const std::string what = "matrix " + name + " row " + std::to_string(r);
            const auto tokens = dataLine(what, cols);
            for (long c = 0; c < cols; ++c) {
                m(r, c) = parseReal(tokens[static_cast<std::size_t>(c)], what);
            }
        }
    }

    void readVector(const std::string& name, long length, attn::Vector& v)
    {
        const std::string what = "vector " + name;
        const auto tokens = dataLine(what, length);
        v.resize(length);
        for (long i = 0; i < length; ++i) {
            v(i) = parseReal(tokens[static_cast<std::size_t>(i)], what);
        }
    }

    void readMask(const std::string& name, long rows, long cols, attn::BoolMatrix& m)
    {
        m.resize(rows, cols);
        for (long r = 0; r < rows; ++r) {
            const std::string what = "mask " + name + " row " + std::to_string(r);
            const auto tokens = dataLine(what, cols);
            for (long c = 0; c < cols; ++c) {
                m(r, c) = parseBit(tokens[static_cast<std::size_t>(c)], what);
            }
        }
    }

    void readFlags(const std::string& name, long length, std::vector<bool>& f)
    {
        const std::string what = "flags " + name;
        const auto tokens = dataLine(what, length);
        f.clear();
        for (const std::string& token : tokens) f.push_back(parseBit(token, what));
    }

    // ---- end-of-file checks: completeness and shapes ---------------------------------------

    void require(const std::string& key) const
    {
        if (!seen_.count(key)) fail("missing " + key);
    }

    void expectShape(const std::string& what, long rows, long cols, long wantRows,
                     long wantCols) const
    {
        if (rows != wantRows || cols != wantCols) {
            fail(what + ": expected " + std::to_string(wantRows) + " x " +
                 std::to_string(wantCols) + ", got " + std::to_string(rows) + " x " +
                 std::to_string(cols));
        }
    }
    template <typename M>
    void expectShape(const std::string& what, const M& m, long wantRows, long wantCols) const
    {
        expectShape(what, m.rows(), m.cols(), wantRows, wantCols);
    }

    void finish() const
    {
        for (const char* key : {"mode", "scaling", "temperature", "score", "heads"}) {
            require(std::string("option ") + key);
        }
        const attn::AttentionInput& in = fx_.input;
        const bool cross = in.mode == attn::Mode::Cross;
        const bool additive = in.score == attn::ScoreFunction::Additive;
        require("matrix X");
        if (cross) require("matrix Y");
        if (!cross && seen_.count("matrix Y")) fail("matrix Y given but mode is not cross");
        const long n = in.X.rows();
        const long dModel = in.X.cols();
        const long m = cross ? in.Y.rows() : n;
        if (cross) expectShape("matrix Y", in.Y.rows(), in.Y.cols(), m, dModel);

        long concatCols = 0;
        for (std::size_t h = 0; h < in.heads.size(); ++h) {
            const std::string p = "heads." + std::to_string(h) + ".";
            for (const char* key : {"W_Q", "W_K", "W_V"}) require("matrix " + p + key);
            const attn::HeadParams& hp = in.heads[h];
            const long dK = hp.W_Q.cols();
            const long dV = hp.W_V.cols();
            concatCols += dV;
            expectShape("matrix " + p + "W_Q", hp.W_Q, dModel, dK);
            expectShape("matrix " + p + "W_K", hp.W_K, dModel, dK);
            expectShape("matrix " + p + "W_V", hp.W_V, dModel, dV);
            if (additive) {
                require("matrix " + p + "W_a");
                require("matrix " + p + "U_a");
                require("vector " + p + "v");
                const long dA = hp.additive.W_a.rows();
                expectShape("matrix " + p + "W_a", hp.additive.W_a, dA, dK);
                expectShape("matrix " + p + "U_a", hp.additive.U_a, dA, dK);
                expectShape("vector " + p + "v", hp.additive.v.rows(), 1, dA, 1);
            } else {
                for (const std::string& key :
                     {"matrix " + p + "W_a", "matrix " + p + "U_a", "vector " + p + "v"}) {
                    if (seen_.count(key)) fail(key + " given but option score is dot");
                }
            }

            const std::string e = "matrix expected." + p;
            for (const std::string& key : expectedHeadMatrices()) require(e + key);
            const ExpectedHead& eh = fx_.heads[h];
            expectShape(e + "Q", eh.Q, n, dK);
            expectShape(e + "K", eh.K, m, dK);
            expectShape(e + "V", eh.V, m, dV);
            expectShape(e + "scores", eh.scores, n, m);
            expectShape(e + "scaled", eh.scaled, n, m);
            expectShape(e + "weights", eh.weights, n, m);
            expectShape(e + "output", eh.output, n, dV);
        }
        if (in.mask) expectShape("mask mask", *in.mask, n, m);
        if (seen_.count("matrix W_O")) expectShape("matrix W_O", in.W_O, concatCols, dModel);

        require("mask expected.mask");
        require("flags expected.fully_masked");
        require("matrix expected.concat");
        require("matrix expected.output");
        expectShape("mask expected.mask", fx_.effectiveMask, n, m);
        expectShape("flags expected.fully_masked", static_cast<long>(fx_.fullyMasked.size()), 1, n,
                    1);
        for (long i = 0; i < n; ++i) {
            if (fx_.fullyMasked[static_cast<std::size_t>(i)] == fx_.effectiveMask.row(i).any()) {
                fail("flags expected.fully_masked disagrees with mask expected.mask at row " +
                     std::to_string(i));
            }
        }
        expectShape("matrix expected.concat", fx_.concat, n, concatCols);
        expectShape("matrix expected.output", fx_.output, n,
                    seen_.count("matrix W_O") ? dModel : concatCols);
    }

    std::istream& in_;
    std::string source_;
    ReferenceFixture& fx_;
    long lineNo_ = 0;
    std::set<std::string> seen_;  // "KIND NAME" of every block and option read
};

}  // namespace

std::string parseFixture(std::istream& in, const std::string& sourceName, ReferenceFixture& fixture)
{
    fixture = ReferenceFixture{};
    fixture.source = sourceName;
    try {
        Parser(in, sourceName, fixture).run();
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

std::string readFixture(const std::string& path, ReferenceFixture& fixture)
{
    std::ifstream file(path);
    if (!file) {
        fixture = ReferenceFixture{};
        return path + ": cannot open fixture file";
    }
    return parseFixture(file, path, fixture);
}

std::string fixturePath(const std::string& name)
{
    return std::string(ATTNLAB_FIXTURE_DIR) + "/" + name + ".txt";
}

std::vector<std::string> listFixtures()
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(ATTNLAB_FIXTURE_DIR, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".txt") {
            names.push_back(entry.path().stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace attn_test
