// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ui/head_benchmark.h"

#include <algorithm>

#include <QApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QSlider>
#include <QTimer>

#include "bench/ui/bench_stats.h"
#include "bench/ui/bench_wait.h"
#include "ui/document/document.h"
#include "ui/model/head_link.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/model/predictions_panel.h"
#include "ui/panels/vector_editor_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/main_window.h"

namespace attnlab {

namespace {

HeadBenchmarkRow measure(ModelWindow& model, int layer, const HeadBenchmarkOptions& o,
                         QString& error)
{
    HeadBenchmarkRow row;
    row.layer = layer + 1;
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    Document* doc = window.document();
    HeadLink* link = window.headLink();
    if (!model.document()->openInWorkbench(layer, o.head - 1)) {
        error = QStringLiteral("could not open layer %1 head %2 in the workbench")
                    .arg(layer + 1)
                    .arg(o.head);
        return row;
    }
    doc->flush();
    link->flush();
    doc->select(0, 0);
    QApplication::processEvents();
    row.tokens = doc->session().input.queryCount();
    if (const auto base = link->base()) {
        row.cacheMiB = static_cast<double>(attn::model::cachedBytes(base->result)) / (1 << 20);
        const attn::model::ModelConfig& c = link->loaded()->model.config();
        row.cacheLimitMiB =
            2.0 * static_cast<double>(row.tokens * c.width * c.layers) * sizeof(float) / (1 << 20);
    }
    QPointer<QSlider> slider;
    for (VectorEditorPanel* p : window.findChildren<VectorEditorPanel*>())
        if (p->role() == attn::Role::Key && p->slider(0, 0)) slider = p->slider(0, 0);
    if (slider.isNull()) {
        error = QStringLiteral("no key slider in the workbench");
        return row;
    }
    HeatmapView* view = window.weightsPanel()->view();
    bool painted = false;
    QObject::connect(view, &QCustomPlot::afterReplot, view, [&painted] { painted = true; });
    bool predicted = false;
    QObject::connect(link, &HeadLink::snapshotChanged, link, [&predicted] { predicted = true; });
    const int runsBefore = link->completedRuns();
    std::vector<double> times;
    slider->setSliderDown(true);
    for (int step = 0; step < o.steps && !slider.isNull(); ++step) {
        const int lo = slider->minimum(), hi = slider->maximum();
        const int value = lo + (hi - lo) * (step % 50 + 1) / 52;
        painted = predicted = false;
        QElapsedTimer timer;
        timer.start();
        slider->setValue(value == slider->value() ? value + 1 : value);
        // The map, then the model's re-run and the predictions panel (it refreshes on the same
        // signal; the paint comes with the next events).
        waitFor([&] { return painted && predicted && link->idle(); }, o.timeoutMs);
        QApplication::processEvents();
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    if (!slider.isNull()) slider->setSliderDown(false);
    row.steps = static_cast<int>(times.size());
    row.medianMs = percentile(times, 0.5);
    row.p95Ms = percentile(times, 0.95);
    row.maxMs = percentile(times, 1.0);
    row.modelRuns = link->completedRuns() - runsBefore;
    if (const auto shown = link->snapshot())
        row.cacheMiB += static_cast<double>(attn::model::cachedBytes(shown->result)) / (1 << 20);
    return row;
}

}  // namespace

HeadBenchmarkResult runHeadBenchmark(const HeadBenchmarkOptions& o, QTextStream& log)
{
    HeadBenchmarkResult result;
    ModelWindow model;
    ModelWindowDialogs quiet;
    quiet.warn = [&result](const QString&, const QString& text) { result.error = text; };
    model.setDialogs(quiet);
    if (!model.openFolder(o.folder)) return result;
    model.setText(o.text);
    if (!waitFor([&] { return model.document()->idle(); }, 60000)) {
        result.error = QStringLiteral("the model did not finish its first run");
        return result;
    }
    const int layers = model.document()->layers();
    QList<int> wanted = o.layers;
    if (wanted.isEmpty()) wanted = {1, layers};
    log << "layer\thead\ttokens\tsteps\tmedian_ms\tp95_ms\tmax_ms\tmodel_runs\tcache_MiB\t"
           "cache_limit_MiB\n";
    for (int l : wanted) {
        if (l < 1 || l > layers) {
            result.error = QStringLiteral("layer %1 is outside the model's %2").arg(l).arg(layers);
            return result;
        }
        const HeadBenchmarkRow r = measure(model, l - 1, o, result.error);
        if (!result.error.isEmpty()) return result;
        result.rows << r;
        log << r.layer << '\t' << o.head << '\t' << r.tokens << '\t' << r.steps << '\t'
            << QString::number(r.medianMs, 'f', 2) << '\t' << QString::number(r.p95Ms, 'f', 2)
            << '\t' << QString::number(r.maxMs, 'f', 2) << '\t' << r.modelRuns << '\t'
            << QString::number(r.cacheMiB, 'f', 2) << '\t'
            << QString::number(r.cacheLimitMiB, 'f', 2) << '\n';
        log.flush();
    }
    return result;
}

}  // namespace attnlab
