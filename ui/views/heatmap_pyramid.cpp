// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_pyramid.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace attnlab {

namespace {

// Builds of at least this many cells run on OpenMP threads, a block row per iteration.
constexpr long long kParallelCells = 1LL << 19;

// Row r of `dst` (a level) is the largest rank over rows [r0, r1) of lines read by `line(row,
// scratch)`, each `width` long, pooled by `ratio` along the row.
template <typename Line>
void poolBlockRow(const Line& line, int r0, int r1, int width, int ratio, std::uint16_t* dst,
                  int dstCols)
{
    std::vector<std::uint16_t> acc(static_cast<std::size_t>(width));
    std::vector<std::uint16_t> scratch(static_cast<std::size_t>(width));
    const std::uint16_t* first = line(r0, acc.data());
    if (first != acc.data()) std::copy_n(first, width, acc.begin());
    for (int r = r0 + 1; r < r1; ++r) {
        const std::uint16_t* next = line(r, scratch.data());
        for (int c = 0; c < width; ++c) acc[c] = std::max(acc[c], next[c]);
    }
    for (int b = 0; b < dstCols; ++b) {
        const int lo = b * ratio;
        const int hi = std::min(width, lo + ratio);
        dst[b] = *std::max_element(acc.begin() + lo, acc.begin() + hi);
    }
}

}  // namespace

std::vector<CellSpan> spansForPixels(int cells, int pixels)
{
    std::vector<CellSpan> spans(static_cast<std::size_t>(std::max(pixels, 0)));
    const auto n = static_cast<long long>(cells);
    const auto p = static_cast<long long>(pixels);
    for (long long x = 0; x < p; ++x) {
        CellSpan& s = spans[static_cast<std::size_t>(x)];
        if (cells > pixels) {
            // Cell j's centre j + 0.5 in [x n / p, (x + 1) n / p): j from ceil(x n / p - 0.5).
            s.first = static_cast<int>((2 * x * n + p - 1) / (2 * p));
            s.last = static_cast<int>((2 * (x + 1) * n + p - 1) / (2 * p)) - 1;
        } else {
            s.first = s.last = static_cast<int>(((2 * x + 1) * n) / (2 * p));
        }
    }
    return spans;
}

void CellSource::ranks(int row, int first, int count, std::uint16_t* out) const
{
    const std::size_t at = static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) +
                           static_cast<std::size_t>(first);
    const bool* keep = mask != nullptr ? mask + at : nullptr;
    // Under `causal` only the cells up to the diagonal are read; the rest are masked.
    const int allowed = causal ? std::clamp(row + 1 - first, 0, count) : count;
    const auto n = static_cast<std::size_t>(allowed);
    if (floats != nullptr)
        rankCells(floats + at, keep, n, range, pooling, out);
    else
        rankCells(doubles + at, keep, n, range, pooling, out);
    std::fill(out + allowed, out + count, CellRanks::kMasked);
}

void HeatmapPyramid::reset(const CellSource& source)
{
    source_ = source;
    int count = 0;
    const int longest = std::max(source.rows, source.cols);
    while ((1 << count) < longest) ++count;
    levels_.resize(static_cast<std::size_t>(count));
    for (Level& l : levels_) l.built = false;  // the memory stays for the next build
    cellsRead_ = 0;
}

void HeatmapPyramid::markRowsChanged(const CellSource& source, int first, int end)
{
    source_ = source;
    first = std::clamp(first, 0, source.rows);
    end = std::clamp(end, first, source.rows);
    if (first == end) return;
    for (Level& l : levels_) {
        if (!l.built) continue;
        if (l.dirtyFirst == l.dirtyEnd) {
            l.dirtyFirst = first;
            l.dirtyEnd = end;
        } else {
            l.dirtyFirst = std::min(l.dirtyFirst, first);
            l.dirtyEnd = std::max(l.dirtyEnd, end);
        }
    }
}

void HeatmapPyramid::detach()
{
    source_.doubles = nullptr;
    source_.floats = nullptr;
    source_.mask = nullptr;
}

bool HeatmapPyramid::built(int k) const
{
    return k >= 1 && k <= static_cast<int>(levels_.size()) &&
           levels_[static_cast<std::size_t>(k - 1)].built;
}

int HeatmapPyramid::levelFor(const std::vector<CellSpan>& rows,
                             const std::vector<CellSpan>& columns) const
{
    if (source_.empty() || rows.empty() || columns.empty()) return 0;
    int narrowest = std::max(source_.rows, source_.cols);
    for (const CellSpan& s : clampedSpans(rows, source_.rows))
        narrowest = std::min(narrowest, s.last - s.first + 1);
    for (const CellSpan& s : clampedSpans(columns, source_.cols))
        narrowest = std::min(narrowest, s.last - s.first + 1);
    // The largest k with 2^k <= narrowest.
    const int k = std::bit_width(static_cast<unsigned>(std::max(narrowest, 1))) - 1;
    return std::min(k, static_cast<int>(levels_.size()));
}

const CellRanks& HeatmapPyramid::level(int k)
{
    ensure(k);
    return levels_[static_cast<std::size_t>(k - 1)].ranks;
}

void HeatmapPyramid::ensure(int k)
{
    Level& l = levels_[static_cast<std::size_t>(k - 1)];
    if (l.built && l.dirtyFirst == l.dirtyEnd) return;
    const int first = l.built ? l.dirtyFirst : 0;
    const int end = l.built ? l.dirtyEnd : source_.rows;
    if (!l.built) {
        const int block = 1 << k;
        l.ranks.pooling = source_.pooling;
        l.ranks.rows = (source_.rows + block - 1) >> k;
        l.ranks.cols = (source_.cols + block - 1) >> k;
        l.ranks.ranks.resize(static_cast<std::size_t>(l.ranks.rows) *
                             static_cast<std::size_t>(l.ranks.cols));
    }
    // From the finest finer level that is up to date: it has 4^j times fewer cells to read.
    // A stale finer level is not brought up to date for this (no one is looking at it): the
    // matrix is read instead, which costs no more than updating that level would.
    int from = 0;
    for (int j = k - 1; j >= 1; --j) {
        const Level& f = levels_[static_cast<std::size_t>(j - 1)];
        if (f.built && f.dirtyFirst == f.dirtyEnd) {
            from = j;
            break;
        }
    }
    if (from > 0)
        buildFromLevel(k, from, first, end);
    else
        buildFromSource(k, first, end);
    l.built = true;
    l.dirtyFirst = l.dirtyEnd = 0;
}

// Row b of a level from the matrix's rows [r0, r1): the largest and smallest value of each
// block's allowed cells, then their ranks. Ranks grow with the value (weights) or are largest
// at one of the two extremes (furthest from the middle), so this equals the largest rank of
// the block's cells, for a comparison and a blend per cell instead of a rank per cell.
template <typename T>
void poolFromValues(const CellSource& s, const T* values, int r0, int r1, int block,
                    std::uint16_t* dst, int dstCols)
{
    constexpr T kNone = std::numeric_limits<T>::infinity();
    constexpr T kLowest = std::numeric_limits<T>::lowest();
    constexpr T kHighest = std::numeric_limits<T>::max();
    const auto cols = static_cast<std::size_t>(s.cols);
    std::vector<T> hi(cols, -kNone), lo(cols, kNone);
    const bool both = s.pooling == CellPooling::FurthestFromMiddle;
    for (int r = r0; r < r1; ++r) {
        const T* __restrict v = values + static_cast<std::size_t>(r) * cols;
        T* __restrict h = hi.data();
        T* __restrict l = lo.data();
        // Under a causal mask a row's cells past the diagonal are never read.
        const std::size_t len = s.causal ? std::min(cols, static_cast<std::size_t>(r) + 1) : cols;
        // -inf and NaN stand for "no allowed cell": real infinities become the largest finite
        // values, which have the same rank. Branch-free loops, so that they vectorise.
        if (s.mask == nullptr) {
            for (std::size_t c = 0; c < len; ++c) {
                const T x = v[c];
                const T up = x == x ? (x > kLowest ? x : kLowest) : -kNone;
                h[c] = up > h[c] ? up : h[c];
            }
            if (both)
                for (std::size_t c = 0; c < len; ++c) {
                    const T x = v[c];
                    const T down = x == x ? (x < kHighest ? x : kHighest) : kNone;
                    l[c] = down < l[c] ? down : l[c];
                }
            continue;
        }
        const auto* __restrict keep =
            reinterpret_cast<const std::uint8_t*>(s.mask) + static_cast<std::size_t>(r) * cols;
        for (std::size_t c = 0; c < len; ++c) {
            const T x = v[c];
            const bool ok = x == x && keep[c] != 0;
            const T up = ok ? (x > kLowest ? x : kLowest) : -kNone;
            h[c] = up > h[c] ? up : h[c];
        }
        if (both)
            for (std::size_t c = 0; c < len; ++c) {
                const T x = v[c];
                const bool ok = x == x && keep[c] != 0;
                const T down = ok ? (x < kHighest ? x : kHighest) : kNone;
                l[c] = down < l[c] ? down : l[c];
            }
    }
    std::vector<T> top(static_cast<std::size_t>(dstCols)), bottom(top.size());
    for (int b = 0; b < dstCols; ++b) {
        const std::size_t a = static_cast<std::size_t>(b) * static_cast<std::size_t>(block);
        const std::size_t e = std::min(cols, a + static_cast<std::size_t>(block));
        const T h = *std::max_element(hi.begin() + static_cast<std::ptrdiff_t>(a),
                                      hi.begin() + static_cast<std::ptrdiff_t>(e));
        const T l = *std::min_element(lo.begin() + static_cast<std::ptrdiff_t>(a),
                                      lo.begin() + static_cast<std::ptrdiff_t>(e));
        top[static_cast<std::size_t>(b)] = h == -kNone ? std::numeric_limits<T>::quiet_NaN() : h;
        bottom[static_cast<std::size_t>(b)] = h == -kNone ? std::numeric_limits<T>::quiet_NaN() : l;
    }
    const auto n = static_cast<std::size_t>(dstCols);
    rankCells(top.data(), nullptr, n, s.range, s.pooling, dst);
    if (s.pooling == CellPooling::FurthestFromMiddle) {
        std::vector<std::uint16_t> other(n);
        rankCells(bottom.data(), nullptr, n, s.range, s.pooling, other.data());
        for (std::size_t b = 0; b < n; ++b) dst[b] = std::max(dst[b], other[b]);
    }
}

void HeatmapPyramid::buildFromSource(int k, int first, int end)
{
    CellRanks& dst = levels_[static_cast<std::size_t>(k - 1)].ranks;
    const int block = 1 << k;
    const int bFirst = first >> k;
    const int bEnd = end > first ? ((end - 1) >> k) + 1 : bFirst;
    const CellSource& src = source_;
    const long long cells = static_cast<long long>(bEnd - bFirst) * block * src.cols;
#pragma omp parallel for schedule(static) if (cells >= kParallelCells && bEnd - bFirst > 1)
    for (int b = bFirst; b < bEnd; ++b) {
        const int r1 = std::min(src.rows, (b + 1) * block);
        std::uint16_t* out = dst.ranks.data() + static_cast<std::size_t>(b) * dst.cols;
        if (src.floats != nullptr)
            poolFromValues(src, src.floats, b * block, r1, block, out, dst.cols);
        else
            poolFromValues(src, src.doubles, b * block, r1, block, out, dst.cols);
    }
    cellsRead_ +=
        static_cast<long long>(std::min(src.rows, bEnd * block) - bFirst * block) * src.cols;
}

void HeatmapPyramid::buildFromLevel(int k, int j, int first, int end)
{
    CellRanks& dst = levels_[static_cast<std::size_t>(k - 1)].ranks;
    const CellRanks& src = levels_[static_cast<std::size_t>(j - 1)].ranks;
    const int ratio = 1 << (k - j);
    const int bFirst = first >> k;
    const int bEnd = end > first ? ((end - 1) >> k) + 1 : bFirst;
    const auto line = [&src](int row, std::uint16_t*) {
        return src.ranks.data() + static_cast<std::size_t>(row) * src.cols;
    };
    const long long cells = static_cast<long long>(bEnd - bFirst) * ratio * src.cols;
#pragma omp parallel for schedule(static) if (cells >= kParallelCells && bEnd - bFirst > 1)
    for (int b = bFirst; b < bEnd; ++b) {
        poolBlockRow(line, b * ratio, std::min(src.rows, (b + 1) * ratio), src.cols, ratio,
                     dst.ranks.data() + static_cast<std::size_t>(b) * dst.cols, dst.cols);
    }
    cellsRead_ +=
        static_cast<long long>(std::min(src.rows, bEnd * ratio) - bFirst * ratio) * src.cols;
}

void HeatmapPyramid::render(const std::vector<CellSpan>& rowSpans,
                            const std::vector<CellSpan>& columnSpans, const ColorLut& lut,
                            QImage& out)
{
    const int width = static_cast<int>(columnSpans.size());
    const int height = static_cast<int>(rowSpans.size());
    if (width == 0 || height == 0 || source_.empty()) {
        out = QImage();
        return;
    }
    if (out.width() != width || out.height() != height || out.format() != QImage::Format_RGB32)
        out = QImage(width, height, QImage::Format_RGB32);
    const int k = levelFor(rowSpans, columnSpans);
    const CellRanks* lvl = k > 0 ? &level(k) : nullptr;
    // The spans in blocks of level k, the columns relative to the first one shown.
    std::vector<CellSpan> rows = clampedSpans(rowSpans, source_.rows);
    std::vector<CellSpan> columns = clampedSpans(columnSpans, source_.cols);
    int c0 = columns.front().first >> k;
    int c1 = c0;
    for (CellSpan& s : columns) {
        s.first >>= k;
        s.last >>= k;
        c0 = std::min(c0, s.first);
        c1 = std::max(c1, s.last);
    }
    int widest = 0;
    for (CellSpan& s : columns) {
        s.first -= c0;
        s.last -= c0;
        widest = std::max(widest, s.last - s.first);
    }
    for (CellSpan& s : rows) {
        s.first >>= k;
        s.last >>= k;
    }
    const int count = c1 - c0 + 1;
    std::vector<std::uint16_t> pooled(static_cast<std::size_t>(count));
    std::vector<std::uint16_t> scratch(static_cast<std::size_t>(count));
    const auto line = [&](int row) -> const std::uint16_t* {
        if (lvl != nullptr)
            return lvl->ranks.data() + static_cast<std::size_t>(row) * lvl->cols + c0;
        source_.ranks(row, c0, count, scratch.data());
        return scratch.data();
    };
    const auto palette = rankPalette(lut, source_.pooling);
    uchar* bits = out.bits();
    for (int y = 0; y < height; ++y) {
        const CellSpan& r = rows[static_cast<std::size_t>(y)];
        auto* target = reinterpret_cast<QRgb*>(bits + y * out.bytesPerLine());
        if (y > 0 && r.first == rows[static_cast<std::size_t>(y - 1)].first &&
            r.last == rows[static_cast<std::size_t>(y - 1)].last) {
            // This pixel row shows the same blocks as the one above.
            std::copy_n(reinterpret_cast<const QRgb*>(bits + (y - 1) * out.bytesPerLine()), width,
                        target);
            continue;
        }
        const std::uint16_t* ln = line(r.first);
        if (r.last > r.first) {
            std::copy_n(ln, count, pooled.begin());
            for (int i = r.first + 1; i <= r.last; ++i) {
                const std::uint16_t* next = line(i);
                for (int c = 0; c < count; ++c) pooled[c] = std::max(pooled[c], next[c]);
            }
            ln = pooled.data();
        }
        paintRankRow(ln, columns, widest, palette, target);
    }
}

}  // namespace attnlab
