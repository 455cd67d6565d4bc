// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sequences: the target (queries, and keys/values in self mode) and the source
// (keys/values in cross mode), typed as tokens. New tokens get seeded embeddings;
// a generator makes long sequences (t1 … tn) for looking at realistic lengths.

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace attnlab {

class Document;
class PanelMessage;

class SequencesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SequencesPanel(Document* doc, QWidget* parent = nullptr);

    [[nodiscard]] QLineEdit* targetEdit() const { return target_; }
    [[nodiscard]] QLineEdit* sourceEdit() const { return source_; }
    // Applies the typed text (what pressing Enter does).
    void applyTarget();
    void applySource();
    // Replaces the target by n generated tokens.
    void generate(int n);
    // Why the panel's last change was refused, or empty.
    [[nodiscard]] QString message() const;

private:
    void refresh();
    bool setTokens(bool source, const QStringList& tokens);

    Document* doc_;
    QLineEdit* target_;
    QLineEdit* source_;
    QCheckBox* perCharacter_;
    QSpinBox* length_;
    PanelMessage* message_;
};

}  // namespace attnlab
