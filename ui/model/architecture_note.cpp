// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/architecture_note.h"

#include <QLocale>

#include "ui/model/model_document.h"

namespace attnlab {

QString architectureNote(const attn::model::ModelConfig& c)
{
    if (c.family != attn::model::Family::Decoder) return {};
    QStringList sentences;
    if (c.groupSize() > 1)
        sentences << ArchitectureNote::tr(
                         "Grouped-query attention: the %1 query heads share %2 key/value heads, "
                         "%3 to a group (bracketed above the maps), so a key or value edit "
                         "changes every head of its group.")
                         .arg(c.heads)
                         .arg(c.kvHeads)
                         .arg(c.groupSize());
    sentences << ArchitectureNote::tr(
                     "Rotary positions: no position vector is added; each query and key is "
                     "turned by an angle proportional to its position (θ = %1), so a score "
                     "depends on how far apart the two tokens are.")
                     .arg(QLocale().toString(c.rope.theta, 'g', 10));
    if (c.slidingWindow > 0)
        sentences << ArchitectureNote::tr(
            "Sliding window: in the layers that slide, a token sees only the %n "
            "latest tokens.",
            nullptr, static_cast<int>(c.slidingWindow));
    return sentences.join(QLatin1Char(' '));
}

ArchitectureNote::ArchitectureNote(ModelDocument* document, QWidget* parent)
    : QLabel(parent), document_(document)
{
    setObjectName(QStringLiteral("architectureNote"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(document_, &ModelDocument::modelChanged, this, &ArchitectureNote::update);
    update();
}

void ArchitectureNote::update()
{
    const auto loaded = document_->loaded();
    const QString note = loaded ? architectureNote(loaded->model.config()) : QString();
    setText(note);
    setVisible(!note.isEmpty());
}

}  // namespace attnlab
