// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dialog of Export ▸ Figure: what to draw (stage, head or all heads), the size,
// the scale for print (1×, 2×, 3×), square or free cells and the colour range (weights on [0, 1],
// each map on its own range, or one fixed range for every map so that exports compare).

#include <QDialog>

#include "ui/export/figure.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QRadioButton;

namespace attnlab {

struct FigureExportSettings {
    FigureRequest request;
    QSize size{900, 800};
    double scale = 2.0;
    bool defaultSize = true;  // size follows the figure's shape
};

class FigureDialog : public QDialog {
    Q_OBJECT
public:
    // `source` builds the preview-free default sizes; it must outlive the dialog.
    FigureDialog(const FigureSource& source, const FigureExportSettings& initial,
                 QWidget* parent = nullptr);

    [[nodiscard]] FigureExportSettings settings() const;

private:
    // The form's rows: what to show, its size and scale, and the colour range.
    void addFigureRows(QFormLayout* form, const FigureExportSettings& initial);
    void addSizeRows(QFormLayout* form, const FigureExportSettings& initial);
    void addRangeRows(QFormLayout* form, const FigureExportSettings& initial);
    void updateDefaultSize();

    const FigureSource& source_;
    QComboBox* stage_;
    QComboBox* head_;
    QSpinBox* width_;
    QSpinBox* height_;
    QComboBox* scale_;
    QCheckBox* square_;
    QRadioButton* rangeDefault_;
    QRadioButton* rangeData_;
    QRadioButton* rangeFixed_;
    QDoubleSpinBox* lo_;
    QDoubleSpinBox* hi_;
    bool sizeTouched_ = false;
};

}  // namespace attnlab
