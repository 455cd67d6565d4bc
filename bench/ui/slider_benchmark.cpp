// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ui/slider_benchmark.h"

#include <algorithm>

#include <QApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QSlider>

#include "bench/ui/bench_stats.h"
#include "ui/document/document.h"
#include "ui/panels/vector_editor_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/main_window.h"

namespace attnlab {

namespace {

Session sessionOfLength(int n, int dK)
{
    Session s;
    s.dModel = dK;
    s.seed = 7;
    for (int i = 1; i <= n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, s.seed);
    randomiseProjections(s, 1, dK, dK, s.seed);
    return s;
}

UiBenchmarkRow measure(int n, const UiBenchmarkOptions& o)
{
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    Document* doc = window.document();
    doc->replaceSession(sessionOfLength(n, o.dK), QStringLiteral("bench"));
    doc->flush();
    doc->select(0, 0);
    QApplication::processEvents();

    // The panels can be rebuilt (language switch, layout changes): look the slider up afresh.
    auto findSlider = [&window]() -> QSlider* {
        for (VectorEditorPanel* p : window.findChildren<VectorEditorPanel*>())
            if (p->role() == attn::Role::Key && p->isVisible() && p->slider(0, 0))
                return p->slider(0, 0);
        return nullptr;
    };
    QPointer<QSlider> slider = findSlider();
    UiBenchmarkRow row;
    row.n = n;
    if (slider == nullptr) return row;

    HeatmapView* view = window.weightsPanel()->view();
    bool painted = false;
    QObject::connect(view, &QCustomPlot::afterReplot, view, [&painted] { painted = true; });
    int recomputes = 0;
    QObject::connect(doc, &Document::changed, doc, [&recomputes] { ++recomputes; });

    std::vector<double> times;
    slider->setSliderDown(true);
    for (int step = 0; step < o.steps; ++step) {
        const int lo = slider->minimum(), hi = slider->maximum();
        const int value = lo + (hi - lo) * (step % 50 + 1) / 52;
        if (slider.isNull()) {
            // The panel rebuilt its rows: take the new slider.
            slider = findSlider();
            if (slider.isNull()) break;
            slider->setSliderDown(true);
            ++row.sliderRebuilds;
        }
        painted = false;
        QElapsedTimer timer;
        timer.start();
        slider->setValue(value == slider->value() ? value + 1 : value);
        while (!painted && timer.elapsed() < o.timeoutMs)
            QApplication::processEvents(QEventLoop::AllEvents);
        QApplication::processEvents();  // deliver the paint of the replotted buffer
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    if (!slider.isNull()) slider->setSliderDown(false);
    row.steps = static_cast<int>(times.size());
    row.medianMs = percentile(times, 0.5);
    row.p95Ms = percentile(times, 0.95);
    row.maxMs = percentile(times, 1.0);
    row.recomputes = recomputes;
    return row;
}

}  // namespace

QList<UiBenchmarkRow> runUiBenchmark(const UiBenchmarkOptions& options, QTextStream& log)
{
    QList<UiBenchmarkRow> rows;
    log << "n\td_k\tsteps\tmedian_ms\tp95_ms\tmax_ms\trecomputes\tslider_rebuilds\n";
    for (int n : options.sizes) {
        const UiBenchmarkRow r = measure(n, options);
        rows << r;
        log << r.n << '\t' << options.dK << '\t' << r.steps << '\t'
            << QString::number(r.medianMs, 'f', 2) << '\t' << QString::number(r.p95Ms, 'f', 2)
            << '\t' << QString::number(r.maxMs, 'f', 2) << '\t' << r.recomputes << '\t'
            << r.sliderRebuilds << '\n';
        log.flush();
    }
    return rows;
}

}  // namespace attnlab
