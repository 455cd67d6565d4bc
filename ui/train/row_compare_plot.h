// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One query row of the live P beside the same row of the target, as bars over the keys: the
// row's attention budget and where training moves it.

#include <QVector>
#include <qcustomplot.h>

namespace attnlab {

class RowComparePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit RowComparePlot(QWidget* parent = nullptr);
    void setRow(const QString& title, const QStringList& keys, const QVector<double>& weights,
                const QVector<double>& target);
    [[nodiscard]] QVector<double> shownWeights() const { return weights_; }
    [[nodiscard]] QVector<double> shownTarget() const { return target_; }

private:
    QCPBars* live_ = nullptr;
    QCPBars* goal_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QVector<double> weights_, target_;
};

}  // namespace attnlab
