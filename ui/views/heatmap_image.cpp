// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_image.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <type_traits>

namespace attnlab {

namespace {

constexpr int kTop = ColorLut::kLevels - 1;
constexpr std::size_t kRanks = kRankCount;
// Cells per OpenMP chunk of fillCellRanks (smaller maps stay on the calling thread).
constexpr std::size_t kRankChunk = std::size_t{1} << 19;

// Each level's rank under a pooling rule (1 .. kLevels), and each rank's level.
struct RankTables {
    std::array<std::uint16_t, ColorLut::kLevels> rankOf{};
    std::array<std::uint16_t, kRanks> levelOf{};
};

RankTables makeRanks(CellPooling pooling)
{
    std::array<int, ColorLut::kLevels> order{};
    std::iota(order.begin(), order.end(), 0);
    if (pooling == CellPooling::FurthestFromMiddle)
        std::stable_sort(order.begin(), order.end(), [](int a, int b) {
            return std::abs(2 * a - kTop) < std::abs(2 * b - kTop);
        });
    RankTables t;
    for (std::size_t r = 0; r < order.size(); ++r) {
        t.levelOf[r + 1] = static_cast<std::uint16_t>(order[r]);
        t.rankOf[static_cast<std::size_t>(order[r])] = static_cast<std::uint16_t>(r + 1);
    }
    return t;
}

const RankTables& ranksFor(CellPooling pooling)
{
    static const RankTables highest = makeRanks(CellPooling::Highest);
    static const RankTables furthest = makeRanks(CellPooling::FurthestFromMiddle);
    return pooling == CellPooling::Highest ? highest : furthest;
}

// The colour of each rank.
std::array<QRgb, kRanks> paletteOf(const ColorLut& lut, CellPooling pooling)
{
    const RankTables& ranks = ranksFor(pooling);
    std::array<QRgb, kRanks> p{};
    p[CellRanks::kMasked] = lut.masked();
    for (std::size_t r = 1; r < kRanks; ++r) p[r] = lut.table()[ranks.levelOf[r]];
    return p;
}

// One row of ranks into pixels: the largest rank of each pixel's columns.
// `widest`: the most columns any pixel covers, minus one (the loops without an inner loop are
// the common cases and several times faster).
void renderRow(const std::uint16_t* line, const std::vector<CellSpan>& columns, int widest,
               const std::array<QRgb, kRanks>& palette, QRgb* dst)
{
    const std::size_t width = columns.size();
    if (widest == 0) {
        for (std::size_t x = 0; x < width; ++x) dst[x] = palette[line[columns[x].first]];
        return;
    }
    if (widest == 1) {
        for (std::size_t x = 0; x < width; ++x)
            dst[x] = palette[std::max(line[columns[x].first], line[columns[x].last])];
        return;
    }
    for (std::size_t x = 0; x < width; ++x) {
        std::uint16_t best = line[columns[x].first];
        for (int c = columns[x].first + 1; c <= columns[x].last; ++c)
            best = std::max(best, line[c]);
        dst[x] = palette[best];
    }
}

}  // namespace

std::vector<CellSpan> clampedSpans(const std::vector<CellSpan>& spans, int count)
{
    std::vector<CellSpan> out(spans);
    for (CellSpan& s : out) {
        s.first = std::clamp(s.first, 0, count - 1);
        s.last = std::clamp(s.last, s.first, count - 1);
    }
    return out;
}

namespace {

template <typename T>
void rankCellsOf(const T* src, const bool* keep, std::size_t count, const ValueRange& range,
                 CellPooling pooling, std::uint16_t* dst)
{
    const double size = range.upper - range.lower;
    const double lower = range.lower;
    const double factor = size > 0.0 && std::isfinite(size) ? kTop / size : 0.0;
    const RankTables& ranks = ranksFor(pooling);
    // Passes in storage order, without branches so that the compiler can vectorise them.
    auto fill = [&](auto identity) {
        for (std::size_t k = 0; k < count; ++k) {
            const double v = static_cast<double>(src[k]);
            const bool number = v == v;  // not NaN
            double t = number ? (v - lower) * factor : 0.0;
            t = t > 0.0 ? t : 0.0;
            t = t < kTop ? t : kTop;
            const auto level = static_cast<std::uint16_t>(t);
            std::uint16_t rank = 0;
            if constexpr (decltype(identity)::value)
                rank = static_cast<std::uint16_t>(level + 1);
            else
                rank = ranks.rankOf[level];
            dst[k] = number ? rank : CellRanks::kMasked;
        }
    };
    if (pooling == CellPooling::Highest)
        fill(std::true_type{});  // rank = level + 1
    else
        fill(std::false_type{});
    if (keep != nullptr) {
        const auto* __restrict kept = reinterpret_cast<const std::uint8_t*>(keep);
        std::uint16_t* __restrict out16 = dst;
        for (std::size_t k = 0; k < count; ++k)
            out16[k] = kept[k] != 0 ? out16[k] : CellRanks::kMasked;
    }
}

}  // namespace

void rankCells(const double* values, const bool* keep, std::size_t count, const ValueRange& range,
               CellPooling pooling, std::uint16_t* out)
{
    rankCellsOf(values, keep, count, range, pooling, out);
}

void rankCells(const float* values, const bool* keep, std::size_t count, const ValueRange& range,
               CellPooling pooling, std::uint16_t* out)
{
    rankCellsOf(values, keep, count, range, pooling, out);
}

std::array<QRgb, kRankCount> rankPalette(const ColorLut& lut, CellPooling pooling)
{
    return paletteOf(lut, pooling);
}

void paintRankRow(const std::uint16_t* line, const std::vector<CellSpan>& columns, int widest,
                  const std::array<QRgb, kRankCount>& palette, QRgb* dst)
{
    renderRow(line, columns, widest, palette, dst);
}

void fillCellRanks(const attn::Matrix& m, const attn::BoolMatrix* mask, const ValueRange& range,
                   CellPooling pooling, CellRanks& out)
{
    out.pooling = pooling;
    out.rows = static_cast<int>(m.rows());
    out.cols = static_cast<int>(m.cols());
    out.ranks.resize(static_cast<std::size_t>(m.size()));
    const bool useMask = mask != nullptr && mask->rows() == m.rows() && mask->cols() == m.cols();
    const double* src = m.data();
    const bool* keep = useMask ? mask->data() : nullptr;
    std::uint16_t* dst = out.ranks.data();
    const auto count = static_cast<std::size_t>(m.size());
    // Large maps in chunks on OpenMP threads: at n = 2048 this pass was a quarter of a slider
    // step on one thread.
    const auto chunks = static_cast<long>((count + kRankChunk - 1) / kRankChunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (long c = 0; c < chunks; ++c) {
        const std::size_t begin = static_cast<std::size_t>(c) * kRankChunk;
        const std::size_t end = std::min(count, begin + kRankChunk);
        rankCellsOf(src + begin, keep != nullptr ? keep + begin : nullptr, end - begin, range,
                    pooling, dst + begin);
    }
}

void ranksToImage(const CellRanks& cells, const ColorLut& lut, QImage& image)
{
    if (cells.rows == 0 || cells.cols == 0) {
        image = QImage();
        return;
    }
    if (image.width() != cells.cols || image.height() != cells.rows ||
        image.format() != QImage::Format_RGB32)
        image = QImage(cells.cols, cells.rows, QImage::Format_RGB32);
    const auto palette = paletteOf(lut, cells.pooling);
    uchar* bits = image.bits();  // detaches once, not per row
    for (int i = 0; i < cells.rows; ++i) {
        auto* dst = reinterpret_cast<QRgb*>(bits + i * image.bytesPerLine());
        const std::uint16_t* src = cells.ranks.data() + static_cast<std::size_t>(i) * cells.cols;
        for (int j = 0; j < cells.cols; ++j) dst[j] = palette[src[j]];
    }
}

void renderCells(const CellRanks& cells, const std::vector<CellSpan>& rowSpans,
                 const std::vector<CellSpan>& columnSpans, const ColorLut& lut, QImage& out)
{
    const int width = static_cast<int>(columnSpans.size());
    const int height = static_cast<int>(rowSpans.size());
    if (width == 0 || height == 0 || cells.rows == 0 || cells.cols == 0) {
        out = QImage();
        return;
    }
    if (out.width() != width || out.height() != height || out.format() != QImage::Format_RGB32)
        out = QImage(width, height, QImage::Format_RGB32);
    const auto palette = paletteOf(lut, cells.pooling);
    const std::vector<CellSpan> rows = clampedSpans(rowSpans, cells.rows);
    const std::vector<CellSpan> columns = clampedSpans(columnSpans, cells.cols);
    int widest = 0;
    for (const CellSpan& s : columns) widest = std::max(widest, s.last - s.first);
    std::vector<std::uint16_t> pooled(static_cast<std::size_t>(cells.cols));
    const auto cols = static_cast<std::size_t>(cells.cols);
    uchar* bits = out.bits();
    for (int y = 0; y < height; ++y) {
        const CellSpan& r = rows[static_cast<std::size_t>(y)];
        auto* target = reinterpret_cast<QRgb*>(bits + y * out.bytesPerLine());
        if (y > 0 && r.first == rows[static_cast<std::size_t>(y - 1)].first &&
            r.last == rows[static_cast<std::size_t>(y - 1)].last) {
            // A magnified map: this pixel row shows the same cells as the one above.
            std::copy_n(reinterpret_cast<const QRgb*>(bits + (y - 1) * out.bytesPerLine()), width,
                        target);
            continue;
        }
        const std::uint16_t* line = cells.ranks.data() + static_cast<std::size_t>(r.first) * cols;
        if (r.last > r.first) {
            // Several rows in this pixel row: pool them column by column first.
            std::copy(line, line + cols, pooled.begin());
            for (int i = r.first + 1; i <= r.last; ++i) {
                const std::uint16_t* next = cells.ranks.data() + static_cast<std::size_t>(i) * cols;
                for (std::size_t c = 0; c < cols; ++c) pooled[c] = std::max(pooled[c], next[c]);
            }
            line = pooled.data();
        }
        renderRow(line, columns, widest, palette, target);
    }
}

bool cellAt(long rows, long cols, double x, double y, int& row, int& column)
{
    const long j = std::lround(x);
    const long i = std::lround(y);
    if (j < 0 || i < 0 || j >= cols || i >= rows || std::abs(x - static_cast<double>(j)) > 0.5 ||
        std::abs(y - static_cast<double>(i)) > 0.5)
        return false;
    row = static_cast<int>(i);
    column = static_cast<int>(j);
    return true;
}

}  // namespace attnlab
