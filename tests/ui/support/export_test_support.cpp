// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/export_test_support.h"

#include <bit>
#include <cstdint>

#include <QJsonArray>
#include <QJsonValue>
#include <QXmlStreamReader>

namespace attnlab::testing {

Session exportSession()
{
    Session s = defaultSession();
    s.targetTokens = {QStringLiteral("那只"), QStringLiteral("动物"), QStringLiteral("没过街"),
                      QStringLiteral("因为"), QStringLiteral("它"),   QStringLiteral("累了")};
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, s.seed);
    randomiseProjections(s, 2, 3, 3, 7);
    s.input.mode = attn::Mode::Causal;
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.head = 0;
    e.index = 1;
    e.scale = 2.0;
    s.input.edits.push_back(e);
    return s;
}

bool equalsJsonRows(const QJsonValue& rows, const attn::Matrix& m, QString& why)
{
    const QJsonArray a = rows.toArray();
    if (a.size() != m.rows()) {
        why = QStringLiteral("rows %1 != %2").arg(a.size()).arg(m.rows());
        return false;
    }
    for (long i = 0; i < m.rows(); ++i) {
        const QJsonArray r = a[i].toArray();
        if (r.size() != m.cols()) {
            why = QStringLiteral("row %1: cols %2 != %3").arg(i).arg(r.size()).arg(m.cols());
            return false;
        }
        for (long j = 0; j < m.cols(); ++j) {
            const double v = r[j].toDouble();
            if (std::bit_cast<std::uint64_t>(v) != std::bit_cast<std::uint64_t>(m(i, j))) {
                why = QStringLiteral("(%1, %2): %3 != %4")
                          .arg(i)
                          .arg(j)
                          .arg(v, 0, 'g', 17)
                          .arg(m(i, j), 0, 'g', 17);
                return false;
            }
        }
    }
    return true;
}

SvgSummary readSvg(const QByteArray& svg)
{
    SvgSummary s;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const QStringView name = xml.name();
        const QString family = xml.attributes().value(QStringLiteral("font-family")).toString();
        if (!family.isEmpty()) s.fontFamilies << family;
        const QString fill = xml.attributes().value(QStringLiteral("fill")).toString();
        if (!fill.isEmpty()) s.fills << fill;
        if (name == QLatin1String("text"))
            s.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        else if (name == QLatin1String("rect"))
            ++s.rects;
        else if (name == QLatin1String("path") || name == QLatin1String("polygon"))
            ++s.paths;
        else if (name == QLatin1String("image"))
            ++s.images;
    }
    s.wellFormed = !xml.hasError();
    return s;
}

}  // namespace attnlab::testing
