// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ui/model_long_benchmark.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QRegularExpression>
#include <QTimer>

#include "bench/ui/bench_stats.h"
#include "bench/ui/bench_wait.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_window.h"

namespace attnlab {

namespace {

// VmHWM, the process's peak resident set, in KiB (0 where /proc is not there).
long peakResidentKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const QString status = QString::fromLatin1(f.readAll());
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("VmHWM:\\s+(\\d+)")).match(status);
    return m.hasMatch() ? m.captured(1).toLong() : 0;
}

// The example text repeated until it has `tokens` tokens under the model's tokenizer, then cut
// a word at a time until it has no more.
QString textOf(const LoadedModel& loaded, int tokens)
{
    const QStringList words =
        ModelWindow::exampleTexts().constFirst().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const auto count = [&](const QStringList& w) {
        return static_cast<long>(
            loaded.tokenizer->encodeTokens(w.join(QLatin1Char(' ')).toStdString()).size());
    };
    QStringList text;
    while (count(text) < tokens)
        for (int k = 0; k < 64; ++k) text << words[text.size() % words.size()];
    while (text.size() > 1 && count(text) > tokens) text.removeLast();
    return text.join(QLatin1Char(' '));
}

}  // namespace

ModelLongResult runModelLongBenchmark(const ModelLongOptions& o, QTextStream& log)
{
    ModelLongResult r;
    ModelWindow window;
    ModelWindowDialogs quiet;
    quiet.openFolder = [](const QString&) { return QString(); };
    quiet.savePath = [](const QString&) { return QString(); };
    quiet.warn = [&r](const QString&, const QString& text) { r.error = text; };
    window.setDialogs(quiet);
    window.resize(1366, 768);
    window.show();
    ModelDocument* doc = window.document();
    QElapsedTimer clock;
    clock.start();
    if (!window.openFolder(o.folder)) return r;
    r.openMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const QString text = textOf(*doc->loaded(), o.tokens);

    int paintsAtResult = -1;
    const QMetaObject::Connection c =
        QObject::connect(doc, &ModelDocument::snapshotChanged, &window,
                         [&] { paintsAtResult = window.grid()->paintCount(); });
    clock.restart();
    window.setText(text);
    doc->runNow();
    const bool ok = waitFor(
        [&] {
            return paintsAtResult >= 0 && doc->idle() &&
                   window.grid()->paintCount() > paintsAtResult;
        },
        o.timeoutMs);
    QObject::disconnect(c);
    if (!ok || !doc->snapshot()) {
        if (r.error.isEmpty()) r.error = QStringLiteral("the model view was not painted in time");
        return r;
    }
    r.firstViewMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    r.runMs = doc->snapshot()->milliseconds;
    r.tokens = doc->snapshot()->tokenCount();
    r.peakKbFirstView = peakResidentKb();
    log << "attnlab-bench model --long: " << doc->describeModel() << ", " << r.tokens
        << " tokens (maps " << (doc->snapshot()->pooled() ? "pooled" : "whole") << "), open "
        << QString::number(r.openMs, 'f', 1) << " ms\n"
        << "first model view painted " << QString::number(r.firstViewMs, 'f', 0)
        << " ms after the text (worker run " << QString::number(r.runMs, 'f', 0)
        << " ms), peak RSS " << r.peakKbFirstView / 1024 << " MiB\n";

    std::vector<double> heads;
    for (int l = 0; l < doc->layers(); ++l)
        for (int h = 0; h < doc->heads(); ++h) {
            clock.restart();
            doc->selectHead(l, h);
            QCoreApplication::processEvents();  // the enlarged map paints the head
            if (!doc->focusedMatrix()) {
                r.error = QStringLiteral("layer %1 head %2 has no map").arg(l + 1).arg(h + 1);
                return r;
            }
            heads.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        }
    r.headsReached = static_cast<int>(heads.size());
    r.headMedianMs = percentile(heads, 0.5);
    r.headMaxMs = percentile(heads, 1.0);
    r.peakKb = peakResidentKb();
    log << "every head enlarged in turn: " << r.headsReached << " heads, median "
        << QString::number(r.headMedianMs, 'f', 0) << " ms, max "
        << QString::number(r.headMaxMs, 'f', 0) << " ms each; peak RSS " << r.peakKb / 1024
        << " MiB\n";
    log << "RESULT {\"what\": \"long\", \"tokens\": " << r.tokens
        << ", \"first_view_ms\": " << QString::number(r.firstViewMs, 'f', 1)
        << ", \"run_ms\": " << QString::number(r.runMs, 'f', 1)
        << ", \"peak_kb_first_view\": " << r.peakKbFirstView << ", \"heads\": " << r.headsReached
        << ", \"head_median_ms\": " << QString::number(r.headMedianMs, 'f', 1)
        << ", \"head_max_ms\": " << QString::number(r.headMaxMs, 'f', 1)
        << ", \"peak_kb\": " << r.peakKb << "}\n";
    return r;
}

}  // namespace attnlab
