// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/vector_editor_panel.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/views/lazy_refresh.h"

namespace attnlab {

VectorEditorPanel::VectorEditorPanel(Document* document, attn::Role role, QWidget* parent)
    : QWidget(parent), doc_(document), role_(role)
{
    auto* layout = new QVBoxLayout(this);
    info_ = new QLabel(this);
    info_->setWordWrap(true);
    layout->addWidget(info_);

    auto* controls = new QHBoxLayout;
    componentsBox_ = new QWidget(this);
    auto* cl = new QHBoxLayout(componentsBox_);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addWidget(new QLabel(tr("Components:"), componentsBox_));
    componentsEdit_ = new QLineEdit(QStringLiteral("1-4"), componentsBox_);
    componentsEdit_->setToolTip(
        tr("Which components get sliders, counted from 1: for example 1,2,5-8 (at most %1).")
            .arg(kMaxChosenComponents));
    componentsEdit_->setMaximumWidth(140);
    cl->addWidget(componentsEdit_);
    controls->addWidget(componentsBox_);
    connect(componentsEdit_, &QLineEdit::editingFinished, this,
            [this] { setComponentsText(componentsEdit_->text()); });

    pickerBox_ = new QWidget(this);
    auto* pl = new QHBoxLayout(pickerBox_);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(new QLabel(tr("Around token:"), pickerBox_));
    picker_ = new QSpinBox(pickerBox_);
    picker_->setToolTip(tr("The sequence is long: only the tokens around this one are shown."));
    pl->addWidget(picker_);
    controls->addWidget(pickerBox_);
    controls->addStretch(1);
    layout->addLayout(controls);
    connect(picker_, &QSpinBox::valueChanged, this, [this](int v) { setCentreToken(v - 1); });

    message_ = new QLabel(this);
    message_->setStyleSheet(QStringLiteral("color: #b00020"));
    message_->setWordWrap(true);
    message_->hide();
    layout->addWidget(message_);

    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    // Rows scroll up and down, never sideways: the panel asks for the rows' full width (so
    // that a dock gives it), and every component's slider stays in view.
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll_, 1);

    // The Queries and Values tabs are usually hidden behind Keys: refresh them when shown.
    auto* lazy = new LazyRefresh(this, [this] { onDocumentChanged(); });
    connect(doc_, &Document::changed, lazy, &LazyRefresh::request);
    connect(doc_, &Document::selectionChanged, this, &VectorEditorPanel::onSelectionChanged);
    onSelectionChanged();
}

VectorEditorPanel::~VectorEditorPanel()
{
    endDrag();
}

int VectorEditorPanel::tokenCount() const
{
    const attn::AttentionInput& in = doc_->session().input;
    return static_cast<int>(role_ == attn::Role::Query ? in.queryCount() : in.keyCount());
}

int VectorEditorPanel::dimension() const
{
    const attn::AttentionInput& in = doc_->session().input;
    return static_cast<int>(role_ == attn::Role::Value ? in.valueDim() : in.keyDim());
}

QString VectorEditorPanel::tokenLabel(int token) const
{
    const Session& s = doc_->session();
    const QStringList& labels = role_ == attn::Role::Query ? s.targetTokens : keyTokens(s);
    if (token >= 0 && token < labels.size()) return shownLabel(labels[token]);
    return tr("#%1").arg(token + 1);
}

QString VectorEditorPanel::componentName(int component) const
{
    return componentName(role_, component);
}

QString VectorEditorPanel::componentName(attn::Role role, int component)
{
    switch (role) {
    case attn::Role::Query: return tr("q%1").arg(component + 1);
    case attn::Role::Key: return tr("k%1").arg(component + 1);
    case attn::Role::Value: return tr("v%1").arg(component + 1);
    }
    return QString::number(component + 1);
}

const attn::Matrix* VectorEditorPanel::vectors() const
{
    const attn::HeadResult* hr = doc_->currentHead();
    if (hr == nullptr) return nullptr;
    switch (role_) {
    case attn::Role::Query: return &hr->Q;
    case attn::Role::Key: return &hr->K;
    case attn::Role::Value: return &hr->V;
    }
    return nullptr;
}

attn::VectorEdit VectorEditorPanel::currentEdit(int token) const
{
    if (const attn::VectorEdit* e =
            attn::findEdit(doc_->session().input.edits, role_, doc_->head(), token))
        return *e;
    attn::VectorEdit e;
    e.role = role_;
    e.head = doc_->head();
    e.index = token;
    return e;
}

const VectorEditorPanel::Row* VectorEditorPanel::rowFor(int token) const
{
    for (const Row& r : rows_)
        if (r.token == token) return &r;
    return nullptr;
}

QSlider* VectorEditorPanel::slider(int token, int component) const
{
    const Row* r = rowFor(token);
    const auto i = shownComponents_.indexOf(component);
    return r != nullptr && i >= 0 ? r->sliders[static_cast<std::size_t>(i)] : nullptr;
}

QDoubleSpinBox* VectorEditorPanel::spinBox(int token, int component) const
{
    const Row* r = rowFor(token);
    const auto i = shownComponents_.indexOf(component);
    return r != nullptr && i >= 0 ? r->spins[static_cast<std::size_t>(i)] : nullptr;
}

QAbstractButton* VectorEditorPanel::doubleButton(int token) const
{
    const Row* r = rowFor(token);
    return r != nullptr ? r->twice : nullptr;
}

QAbstractButton* VectorEditorPanel::resetButton(int token) const
{
    const Row* r = rowFor(token);
    return r != nullptr ? r->reset : nullptr;
}

bool VectorEditorPanel::setComponentsText(const QString& text)
{
    QVector<int> chosen;
    bool ok = true;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList ends = part.trimmed().split(QLatin1Char('-'));
        bool ok1 = false;
        bool ok2 = false;
        const int a = ends.value(0).trimmed().toInt(&ok1);
        const int b = ends.size() == 2 ? ends[1].trimmed().toInt(&ok2) : a;
        ok2 = ends.size() == 1 || ok2;
        if (!ok1 || !ok2 || ends.size() > 2 || a < 1 || b < a || b > dimension()) {
            ok = false;
            break;
        }
        for (int c = a; c <= b; ++c)
            if (!chosen.contains(c - 1)) chosen.push_back(c - 1);
    }
    if (!ok || chosen.isEmpty() || chosen.size() > kMaxChosenComponents) {
        showMessage(tr("Components must be numbers from 1 to %1, such as 1,2,5-8, at most %2.")
                        .arg(dimension())
                        .arg(kMaxChosenComponents));
        return false;
    }
    showMessage(QString());
    std::sort(chosen.begin(), chosen.end());
    chosenComponents_ = chosen;
    updateLayout();
    return true;
}

void VectorEditorPanel::setCentreToken(int token)
{
    const int n = tokenCount();
    const int t = std::clamp(token, 0, std::max(n - 1, 0));
    if (picker_->value() != t + 1) {
        const QSignalBlocker block(picker_);
        picker_->setValue(t + 1);
    }
    centre_ = t;
    updateLayout();
}

void VectorEditorPanel::onDocumentChanged()
{
    updateLayout();
}

void VectorEditorPanel::onSelectionChanged()
{
    centre_ = role_ == attn::Role::Query ? doc_->selectedRow() : doc_->selectedColumn();
    setCentreToken(centre_);
}

void VectorEditorPanel::updateLayout()
{
    const int n = tokenCount();
    const int d = dimension();
    QVector<int> tokens;
    if (n <= kMaxAllTokens) {
        for (int t = 0; t < n; ++t) tokens.push_back(t);
    } else {
        const int first = std::clamp(centre_ - kWindowRadius, 0, n - (2 * kWindowRadius + 1));
        for (int t = first; t < first + 2 * kWindowRadius + 1; ++t) tokens.push_back(t);
    }
    QVector<int> comps;
    if (d <= kMaxAllComponents) {
        for (int c = 0; c < d; ++c) comps.push_back(c);
    } else {
        for (int c : chosenComponents_)
            if (c < d) comps.push_back(c);
        if (comps.isEmpty())
            for (int c = 0; c < 4; ++c) comps.push_back(c);
    }
    componentsBox_->setVisible(d > kMaxAllComponents);
    pickerBox_->setVisible(n > kMaxAllTokens);
    {
        const QSignalBlocker block(picker_);
        picker_->setRange(1, std::max(n, 1));
        picker_->setValue(centre_ + 1);
    }
    QString what;
    switch (role_) {
    case attn::Role::Query: what = tr("Queries of head %1: d_k = %2."); break;
    case attn::Role::Key: what = tr("Keys of head %1: d_k = %2."); break;
    case attn::Role::Value: what = tr("Values of head %1: d_v = %2."); break;
    }
    info_->setText(what.arg(doc_->head() + 1).arg(d) + QLatin1Char(' ') +
                   tr("Drag a slider to set one component of a projected vector; "
                      "×2 doubles the whole vector; Reset removes the edit."));
    QStringList labels;
    for (int t : tokens) labels << tokenLabel(t);
    if (tokens != shownTokens_ || comps != shownComponents_ || labels != shownLabels_ ||
        rowsWidget_ == nullptr) {
        shownTokens_ = tokens;
        shownComponents_ = comps;
        shownLabels_ = labels;
        rebuildRows();
    }
    refreshValues();
}

void VectorEditorPanel::setComponent(int tokenIndex, int component, double value, bool dragging)
{
    attn::VectorEdit e = currentEdit(tokenIndex);
    if (e.scale == 0.0) {
        // A zero scale hides every override: keep the shown (zero) vector, at scale 1.
        e.scale = 1.0;
        e.overrides.clear();
        for (int c = 0; c < dimension(); ++c) e.overrides.push_back({c, 0.0});
    }
    const double stored = value / e.scale;
    auto it = std::find_if(
        e.overrides.begin(), e.overrides.end(),
        [component](const attn::ComponentOverride& o) { return o.component == component; });
    if (it != e.overrides.end())
        it->value = stored;
    else
        e.overrides.push_back({component, stored});
    // The label is read again after a language switch: it captures what to say, not the words.
    const QString token = tokenLabel(tokenIndex);
    Label label;
    if (dragging) {
        label = [role = role_, component, token] {
            return tr("Drag %1 of %2").arg(componentName(role, component), token);
        };
    }
    if (doc_->editVector(e, dragging, label)) showMessage(QString());
}

void VectorEditorPanel::doubleVector(int token)
{
    attn::VectorEdit e = currentEdit(token);
    e.scale *= 2.0;
    doc_->editVector(e, false);
}

void VectorEditorPanel::resetVector(int token)
{
    attn::VectorEdit e = currentEdit(token);
    e.scale = 1.0;
    e.overrides.clear();
    doc_->editVector(e, false);
}

void VectorEditorPanel::endDrag()
{
    doc_->endDrag();  // the next drag is its own undo step, even of the same vector
}

void VectorEditorPanel::showMessage(const QString& text)
{
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

bool VectorEditorPanel::eventFilter(QObject* watched, QEvent* event)
{
    // The wheel scrolls the list unless the slider or spin box was clicked first.
    if (event->type() == QEvent::Wheel) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (w != nullptr && !w->hasFocus()) {
            QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attnlab
