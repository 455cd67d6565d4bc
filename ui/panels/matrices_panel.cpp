// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/matrices_panel.h"

#include <climits>
#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/document/document.h"

namespace attnlab {

namespace {

bool perHead(EditableMatrix m)
{
    return m != EditableMatrix::X && m != EditableMatrix::Y;
}

QString baseName(EditableMatrix m)
{
    switch (m) {
    case EditableMatrix::X: return QStringLiteral("X");
    case EditableMatrix::Y: return QStringLiteral("Y");
    case EditableMatrix::WQ: return QStringLiteral("W_Q");
    case EditableMatrix::WK: return QStringLiteral("W_K");
    case EditableMatrix::WV: return QStringLiteral("W_V");
    case EditableMatrix::WO: return QStringLiteral("W_O");
    case EditableMatrix::Wa: return QStringLiteral("W_a");
    case EditableMatrix::Ua: return QStringLiteral("U_a");
    case EditableMatrix::Va: return QStringLiteral("v");
    }
    return {};
}

}  // namespace

SessionMatrixModel::SessionMatrixModel(Document* document, QObject* parent)
    : QAbstractTableModel(parent), doc_(document)
{
    head_ = doc_->head();
    shape_ = shape();
}

QSize SessionMatrixModel::shape() const
{
    const Session& s = doc_->session();
    if (matrix_ == EditableMatrix::Va) {
        const attn::Vector* v = vectorIn(s, doc_->head());
        return v != nullptr ? QSize(1, static_cast<int>(v->size())) : QSize();
    }
    const attn::Matrix* m = matrixIn(s, matrix_, doc_->head());
    return m != nullptr ? QSize(static_cast<int>(m->cols()), static_cast<int>(m->rows())) : QSize();
}

void SessionMatrixModel::setMatrix(EditableMatrix matrix)
{
    beginResetModel();
    matrix_ = matrix;
    head_ = doc_->head();
    shape_ = shape();
    endResetModel();
}

void SessionMatrixModel::refresh()
{
    const QSize now = shape();
    if (now != shape_ || (perHead(matrix_) && head_ != doc_->head())) {
        beginResetModel();
        shape_ = now;
        head_ = doc_->head();
        endResetModel();
        return;
    }
    if (shape_.isEmpty()) return;
    Q_EMIT dataChanged(index(0, 0), index(shape_.height() - 1, shape_.width() - 1));
    Q_EMIT headerDataChanged(Qt::Vertical, 0, shape_.height() - 1);
}

QString SessionMatrixModel::matrixName() const
{
    if (!perHead(matrix_) || matrix_ == EditableMatrix::WO) return baseName(matrix_);
    return tr("%1 (head %2)").arg(baseName(matrix_)).arg(doc_->head() + 1);
}

int SessionMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : std::max(shape_.height(), 0);
}

int SessionMatrixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : std::max(shape_.width(), 0);
}

double SessionMatrixModel::valueAt(int row, int column) const
{
    const Session& s = doc_->session();
    if (matrix_ == EditableMatrix::Va) {
        const attn::Vector* v = vectorIn(s, doc_->head());
        return v != nullptr && row < v->size() ? (*v)(row) : 0.0;
    }
    const attn::Matrix* m = matrixIn(s, matrix_, doc_->head());
    if (m == nullptr || row >= m->rows() || column >= m->cols()) return 0.0;
    return (*m)(row, column);
}

QVariant SessionMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const double v = valueAt(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole: return QLocale().toString(v, 'f', 4);
    case Qt::EditRole: return QLocale().toString(v, 'g', 17);
    case Qt::ToolTipRole:
        return tr("%1[%2, %3] = %4")
            .arg(matrixName())
            .arg(index.row() + 1)
            .arg(index.column() + 1)
            .arg(QLocale().toString(v, 'g', 17));
    case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant SessionMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    const Session& s = doc_->session();
    if (orientation == Qt::Vertical) {
        if (matrix_ == EditableMatrix::X && section < s.targetTokens.size())
            return shownLabel(s.targetTokens[section]);
        if (matrix_ == EditableMatrix::Y && section < s.sourceTokens.size())
            return shownLabel(s.sourceTokens[section]);
    }
    return QString::number(section + 1);
}

Qt::ItemFlags SessionMatrixModel::flags(const QModelIndex& index) const
{
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool SessionMatrixModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.row() >= rowCount() ||
        index.column() >= columnCount())
        return false;
    bool ok = false;
    double v = 0.0;
    if (value.typeId() == QMetaType::Double) {
        v = value.toDouble();
        ok = true;
    } else {
        const QString text = value.toString().trimmed();
        v = QLocale().toDouble(text, &ok);
        if (!ok) v = QLocale::c().toDouble(text, &ok);
    }
    if (!ok || !std::isfinite(v) || std::abs(v) > kMaxAbs) {
        Q_EMIT refused(
            tr("“%1” is not a number between −%2 and %2; %3 keeps its value.")
                .arg(value.toString(), QLocale().toString(kMaxAbs, 'g', 7), matrixName()));
        return false;
    }
    const int r = index.row();
    const int c = index.column();
    if (valueAt(r, c) == v) return true;
    if (doc_->setMatrixEntry(matrix_, doc_->head(), r, c, v, matrixName())) return true;
    Q_EMIT refused(doc_->lastError());
    return false;
}

MatricesPanel::MatricesPanel(Document* document, QWidget* parent)
    : QWidget(parent), doc_(document), model_(new SessionMatrixModel(document, this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Matrix:"), this));
    chooser_ = new QComboBox(this);
    chooser_->setToolTip(tr("Which matrix of the session to show and edit"));
    top->addWidget(chooser_);
    top->addStretch(1);
    top->addWidget(new QLabel(tr("Seed:"), this));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, INT_MAX);
    seed_->setToolTip(tr("The seed the random projections are drawn from"));
    top->addWidget(seed_);
    randomise_ = new QPushButton(tr("Randomise"), this);
    randomise_->setToolTip(
        tr("Draw new W_Q, W_K, W_V (every head), W_O and additive parameters from the seed "
           "shown; vector edits are removed. One undo step."));
    top->addWidget(randomise_);
    reset_ = new QPushButton(tr("Reset"), this);
    reset_->setToolTip(
        tr("Redraw the projections from the session's own seed, discarding hand "
           "edits of the projections. One undo step."));
    top->addWidget(reset_);
    layout->addLayout(top);

    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    layout->addWidget(caption_);
    message_ = new QLabel(this);
    message_->setStyleSheet(QStringLiteral("color: #b00020"));
    message_->setWordWrap(true);
    message_->hide();
    layout->addWidget(message_);

    view_ = new QTableView(this);
    view_->setModel(model_);
    view_->setToolTip(tr("Double-click a cell to type a new value"));
    // Fixed section sizes: ResizeToContents measures every cell's text on every change,
    // which took hundreds of milliseconds per slider step at n = 128, d = 64.
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->horizontalHeader()->setDefaultSectionSize(
        view_->fontMetrics().horizontalAdvance(QStringLiteral("-00.0000")) + 12);
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    layout->addWidget(view_, 1);

    connect(chooser_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0) return;
        model_->setMatrix(static_cast<EditableMatrix>(chooser_->itemData(i).toInt()));
        updateCaption();
    });
    connect(model_, &SessionMatrixModel::refused, this, &MatricesPanel::showMessage);
    connect(randomise_, &QAbstractButton::clicked, this,
            [this] { randomise(static_cast<quint64>(seed_->value())); });
    connect(reset_, &QAbstractButton::clicked, this, [this] { randomise(doc_->session().seed); });
    // Vector edits do not change these matrices: follow the inputs and the shown head only.
    connect(doc_, &Document::inputsChanged, this, &MatricesPanel::onDocumentChanged);
    connect(doc_, &Document::selectionChanged, this, [this] {
        if (doc_->head() != shownHead_) onDocumentChanged();
    });
    lastSeed_ = doc_->session().seed + 1;  // force the first sync
    onDocumentChanged();
}

QList<EditableMatrix> MatricesPanel::availableMatrices() const
{
    const attn::AttentionInput& in = doc_->session().input;
    QList<EditableMatrix> out{EditableMatrix::X};
    if (in.mode == attn::Mode::Cross) out << EditableMatrix::Y;
    if (!in.heads.empty()) out << EditableMatrix::WQ << EditableMatrix::WK << EditableMatrix::WV;
    if (in.heads.size() > 1 && in.W_O.size() > 0) out << EditableMatrix::WO;
    if (in.score == attn::ScoreFunction::Additive && !in.heads.empty())
        out << EditableMatrix::Wa << EditableMatrix::Ua << EditableMatrix::Va;
    return out;
}

bool MatricesPanel::setMatrix(EditableMatrix matrix)
{
    const int i = chooser_->findData(static_cast<int>(matrix));
    if (i < 0) return false;
    chooser_->setCurrentIndex(i);
    return true;
}

bool MatricesPanel::randomise(quint64 seed)
{
    const bool ok = doc_->randomise(seed);
    showMessage(ok ? QString() : doc_->lastError());
    return ok;
}

void MatricesPanel::onDocumentChanged()
{
    shownHead_ = doc_->head();
    showMessage(QString());
    updateChooser();
    model_->refresh();
    updateCaption();
    const quint64 seed = doc_->session().seed;
    if (seed != lastSeed_) {
        lastSeed_ = seed;
        const QSignalBlocker block(seed_);
        seed_->setValue(static_cast<int>(std::min<quint64>(seed, INT_MAX)));
    }
}

void MatricesPanel::updateChooser()
{
    const QList<EditableMatrix> available = availableMatrices();
    QList<EditableMatrix> listed;
    for (int i = 0; i < chooser_->count(); ++i)
        listed << static_cast<EditableMatrix>(chooser_->itemData(i).toInt());
    if (listed == available) return;
    const EditableMatrix current = model_->matrix();
    {
        const QSignalBlocker block(chooser_);
        chooser_->clear();
        for (EditableMatrix m : available) chooser_->addItem(baseName(m), static_cast<int>(m));
        const int i = chooser_->findData(static_cast<int>(current));
        chooser_->setCurrentIndex(std::max(i, 0));
    }
    if (!available.contains(current)) model_->setMatrix(EditableMatrix::X);
}

void MatricesPanel::updateCaption()
{
    const attn::AttentionInput& in = doc_->session().input;
    QString what;
    switch (model_->matrix()) {
    case EditableMatrix::X: what = tr("Target embeddings, one row per token."); break;
    case EditableMatrix::Y: what = tr("Source embeddings (cross mode): keys and values."); break;
    case EditableMatrix::WQ: what = tr("Query projection: Q = X W_Q."); break;
    case EditableMatrix::WK: what = tr("Key projection: K = X W_K (Y W_K in cross mode)."); break;
    case EditableMatrix::WV: what = tr("Value projection: V = X W_V (Y W_V in cross mode)."); break;
    case EditableMatrix::WO: what = tr("Output projection of the concatenated heads."); break;
    case EditableMatrix::Wa: what = tr("Additive score: W_a in vᵀ tanh(W_a q + U_a k)."); break;
    case EditableMatrix::Ua: what = tr("Additive score: U_a in vᵀ tanh(W_a q + U_a k)."); break;
    case EditableMatrix::Va: what = tr("Additive score: v in vᵀ tanh(W_a q + U_a k)."); break;
    }
    QString text = tr("%1: %2 × %3. %4")
                       .arg(model_->matrixName())
                       .arg(model_->rowCount())
                       .arg(model_->columnCount())
                       .arg(what);
    const EditableMatrix m = model_->matrix();
    if (in.sharedProjections && (m == EditableMatrix::WK || m == EditableMatrix::WV))
        text += QLatin1Char(' ') + tr("Shared projections are on: W_Q is used instead.");
    caption_->setText(text);
}

void MatricesPanel::showMessage(const QString& text)
{
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

}  // namespace attnlab
