// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ui/model_typing_benchmark.h"

#include <algorithm>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLineEdit>

#include "bench/ui/bench_stats.h"
#include "bench/ui/bench_wait.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_window.h"

namespace attnlab {

namespace {

void press(QWidget* target, int key, const QString& text)
{
    QKeyEvent down(QEvent::KeyPress, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &down);
    QKeyEvent up(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &up);
}

}  // namespace

ModelTypingResult runModelTypingBenchmark(const ModelTypingOptions& o, QTextStream& log)
{
    ModelTypingResult r;
    ModelWindow window;
    ModelWindowDialogs quiet;
    quiet.openFolder = [](const QString&) { return QString(); };
    quiet.savePath = [](const QString&) { return QString(); };
    quiet.warn = [&r](const QString&, const QString& text) { r.error = text; };
    window.setDialogs(quiet);
    window.show();
    ModelDocument* doc = window.document();
    QElapsedTimer clock;
    clock.start();
    if (!window.openFolder(o.folder)) return r;
    r.openMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    // A text of about `tokens` tokens: the textbook's sentence, word after word (about one token
    // a word), grown or cut a word at a time until it has `tokens` (or one more).
    const QStringList words =
        ModelWindow::exampleTexts().constFirst().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    int count = std::max(1, o.tokens * static_cast<int>(words.size()) / 12);
    for (int attempt = 0; attempt < 12; ++attempt) {
        QStringList text;
        for (int i = 0; i < count; ++i) text << words[i % words.size()];
        window.setText(text.join(QLatin1Char(' ')));
        if (!waitFor([&] { return doc->idle(); }, o.timeoutMs)) {
            r.error = QStringLiteral("the first run did not finish");
            return r;
        }
        const long have = doc->snapshot() ? doc->snapshot()->tokenCount() : 0;
        if (have >= o.tokens && have <= o.tokens + 1) break;
        count += have < o.tokens ? 1 : -1;
    }
    r.tokens = doc->snapshot() ? doc->snapshot()->tokenCount() : 0;
    log << "attnlab-bench model: " << doc->describeModel() << ", " << r.tokens << " tokens, open "
        << QString::number(r.openMs, 'f', 1) << " ms\n";

    QLineEdit* box = window.textBox();
    box->setFocus();
    box->end(false);
    std::vector<double> times, runs;
    for (int k = 0; k < o.keys; ++k) {
        const bool add = k % 2 == 0;
        int paintsAtResult = -1;
        const QMetaObject::Connection c =
            QObject::connect(doc, &ModelDocument::snapshotChanged, &window,
                             [&] { paintsAtResult = window.grid()->paintCount(); });
        clock.restart();
        if (add)
            press(box, Qt::Key_S, QStringLiteral("s"));
        else
            press(box, Qt::Key_Backspace, QString());
        const bool ok = waitFor(
            [&] {
                return paintsAtResult >= 0 && doc->idle() &&
                       window.grid()->paintCount() > paintsAtResult;
            },
            o.timeoutMs);
        QObject::disconnect(c);
        if (!ok) {
            r.error = QStringLiteral("keystroke %1 did not repaint in time").arg(k + 1);
            return r;
        }
        times.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        runs.push_back(doc->snapshot()->milliseconds);
    }
    r.keys = static_cast<int>(times.size());
    r.medianMs = percentile(times, 0.5);
    r.p95Ms = percentile(times, 0.95);
    r.maxMs = percentile(times, 1.0);
    r.runMedianMs = percentile(runs, 0.5);
    log << "keystroke to painted model view: median " << QString::number(r.medianMs, 'f', 1)
        << " ms, p95 " << QString::number(r.p95Ms, 'f', 1) << " ms, max "
        << QString::number(r.maxMs, 'f', 1) << " ms over " << r.keys << " keys (typing pause "
        << ModelDocument::kDebounceMs << " ms included; worker run median "
        << QString::number(r.runMedianMs, 'f', 1) << " ms)\n";
    return r;
}

}  // namespace attnlab
