#include "ui/io/json_prescan.h"

#include <vector>

#include <QSet>

namespace attnlab {

namespace {

// Length of the valid UTF-8 sequence at `i`, or 0 when it is not valid (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF).
qsizetype utf8SequenceLength(const QByteArray& b, qsizetype i)
{
    const auto at = [&b](qsizetype k) { return static_cast<unsigned char>(b[k]); };
    const unsigned char c = at(i);
    if (c < 0x80) return 1;
    qsizetype len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > b.size()) return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (qsizetype k = 2; k < len; ++k) {
        if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
    }
    return len;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Reads the string starting at the quote at `i`; returns the index after the closing quote
// (or the end) and its decoded text in `out` (escapes resolved as the JSON parser does).
qsizetype readString(const QByteArray& b, qsizetype i, QString& out)
{
    out.clear();
    QByteArray raw;
    ++i;
    while (i < b.size()) {
        const char c = b[i];
        if (c == '"') {
            out += QString::fromUtf8(raw);
            return i + 1;
        }
        if (c != '\\') {
            raw += c;
            ++i;
            continue;
        }
        out += QString::fromUtf8(raw);
        raw.clear();
        if (i + 1 >= b.size()) return b.size();
        const char e = b[i + 1];
        i += 2;
        switch (e) {
        case 'b': out += QLatin1Char('\b'); break;
        case 'f': out += QLatin1Char('\f'); break;
        case 'n': out += QLatin1Char('\n'); break;
        case 'r': out += QLatin1Char('\r'); break;
        case 't': out += QLatin1Char('\t'); break;
        case 'u': {
            int code = 0;
            for (int k = 0; k < 4 && i < b.size(); ++k, ++i) {
                const int h = hexValue(b[i]);
                code = code * 16 + (h < 0 ? 0 : h);
            }
            out += QChar(static_cast<char16_t>(code));
            break;
        }
        default: out += QLatin1Char(e); break;
        }
    }
    out += QString::fromUtf8(raw);
    return b.size();
}

struct Frame {
    bool object = false;
    bool expectKey = false;
    bool hasKey = false;
    bool hasValue = false;  // an array with at least one element
    long index = 0;
    QString key;
    QSet<QString> keys;
};

QString pathOf(const std::vector<Frame>& stack)
{
    QString path;
    for (const Frame& f : stack) {
        if (f.object) {
            if (!f.hasKey) break;
            if (!path.isEmpty()) path += QLatin1Char('.');
            path += f.key;
        } else {
            path += QLatin1Char('[') + QString::number(f.index) + QLatin1Char(']');
        }
    }
    return path;
}

}  // namespace

int lineOfOffset(const QByteArray& bytes, qsizetype offset)
{
    const qsizetype end = std::min(offset, bytes.size());
    int line = 1;
    for (qsizetype i = 0; i < end; ++i) {
        if (bytes[i] == '\n') ++line;
    }
    return line;
}

namespace {

// True when the number literal at `i` (which starts with '-') is a negative zero: "-0",
// "-0.000", "-0e5". QJsonDocument stores integral values as integers, which loses the sign.
bool isNegativeZero(const QByteArray& b, qsizetype i)
{
    ++i;
    bool digits = false;
    for (; i < b.size(); ++i) {
        const char c = b[i];
        if (c == '0') {
            digits = true;
        } else if (c == '.') {
            continue;
        } else if (c >= '1' && c <= '9') {
            return false;
        } else {
            break;
        }
    }
    return digits;
}

// Walks the structure up to `stopAt`, tracking the JSON path of the current value.
// Returns false when it stops at a problem, which it records in `r`.
bool walk(const QByteArray& b, qsizetype stopAt, int maxDepth, JsonPrescan& r,
          std::vector<Frame>& stack)
{
    QString text;
    for (qsizetype i = r.bomLength; i < std::min(stopAt, b.size());) {
        const char c = b[i];
        if (!stack.empty() && !stack.back().object && c != ']' && c != ' ' && c != '\n' &&
            c != '\t' && c != '\r')
            stack.back().hasValue = true;
        if (c == '"') {
            const qsizetype start = i;
            i = readString(b, i, text);
            if (!stack.empty() && stack.back().object && stack.back().expectKey) {
                Frame& top = stack.back();
                top.expectKey = false;
                top.key = text;
                top.hasKey = true;
                if (top.keys.contains(text)) {
                    r.field = pathOf(stack);
                    r.problem = JsonPrescan::Problem::DuplicateKey;
                    r.offset = start;
                    return false;
                }
                top.keys.insert(text);
            }
            continue;
        }
        if (c == '{' || c == '[') {
            if (static_cast<int>(stack.size()) >= maxDepth) {
                r.field = pathOf(stack);
                r.problem = JsonPrescan::Problem::TooDeep;
                r.offset = i;
                return false;
            }
            Frame f;
            f.object = c == '{';
            f.expectKey = f.object;
            stack.push_back(std::move(f));
        } else if (c == '}' || c == ']') {
            if (!stack.empty()) {
                const Frame closed = std::move(stack.back());
                stack.pop_back();
                if (!closed.object && stack.size() == 2)
                    r.arrayLengths.insert(pathOf(stack), closed.hasValue ? closed.index + 1 : 0);
            }
        } else if (c == ',' && !stack.empty()) {
            if (stack.back().object)
                stack.back().expectKey = true;
            else
                ++stack.back().index;
        } else if (c == '-' && isNegativeZero(b, i)) {
            r.negativeZeros.insert(pathOf(stack));
        }
        ++i;
    }
    return true;
}

}  // namespace

JsonPrescan prescanJson(const QByteArray& b, int maxDepth)
{
    JsonPrescan r;
    const auto fail = [&r, &b](JsonPrescan::Problem p, qsizetype offset) {
        r.problem = p;
        r.offset = offset;
        r.line = lineOfOffset(b, offset);
        return r;
    };
    const QByteArray utf32be("\x00\x00\xFE\xFF", 4);
    const QByteArray utf32le("\xFF\xFE\x00\x00", 4);
    if (b.startsWith(utf32be) || b.startsWith(utf32le))
        return fail(JsonPrescan::Problem::Utf32Bom, 0);
    if (b.startsWith("\xFE\xFF") || b.startsWith("\xFF\xFE"))
        return fail(JsonPrescan::Problem::Utf16Bom, 0);
    if (b.startsWith("\xEF\xBB\xBF")) r.bomLength = 3;
    for (qsizetype i = r.bomLength; i < b.size();) {
        const qsizetype len = utf8SequenceLength(b, i);
        if (len == 0) return fail(JsonPrescan::Problem::InvalidUtf8, i);
        i += len;
    }
    std::vector<Frame> stack;
    if (!walk(b, b.size(), maxDepth, r, stack)) r.line = lineOfOffset(b, r.offset);
    return r;
}

QString jsonPathAt(const QByteArray& bytes, qsizetype offset)
{
    JsonPrescan r;
    std::vector<Frame> stack;
    walk(bytes, offset, 1 << 30, r, stack);
    return pathOf(stack);
}

}  // namespace attnlab
