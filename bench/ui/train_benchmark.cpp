// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ui/train_benchmark.h"

#include <chrono>
#include <vector>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>

#include "bench/ui/bench_stats.h"
#include "ui/document/document.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_display.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/main_window.h"

namespace attnlab {

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

Session benchSession(int n)
{
    Session s;
    s.dModel = 8;
    s.seed = 7;
    for (int i = 1; i <= n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, s.seed);
    randomiseProjections(s, 1, 4, 4, s.seed);
    return s;
}

}  // namespace

TrainBenchmarkResult runTrainBenchmark(const TrainBenchmarkOptions& o, QTextStream& log)
{
    TrainBenchmarkResult r;
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    window.document()->replaceSession(benchSession(o.tokens), QStringLiteral("bench"));
    window.document()->flush();
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("TrainerDock"));
    auto* panel = window.findChild<TrainerPanel*>();
    if (!dock || !panel) {
        r.error = QStringLiteral("no Trainer dock");
        return r;
    }
    dock->show();
    QApplication::processEvents();
    QElapsedTimer settle;
    settle.start();
    while ((!panel->run() || !panel->run()->settledTrainer()) && settle.elapsed() < 5000)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!panel->run()) {
        r.error = panel->message();
        return r;
    }
    panel->stepsBox()->setValue(panel->stepsBox()->maximum());

    std::vector<double> ticks, latencies;
    qint64 lastTick = 0;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(16);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        const qint64 t = nowNs();
        if (lastTick > 0) ticks.push_back(static_cast<double>(t - lastTick) / 1e6);
        lastTick = t;
    });
    HeatmapView* live = panel->display()->liveView();
    QObject::connect(live, &QCustomPlot::afterReplot, live, [&] {
        if (panel->run() && panel->run()->last().postedNs > 0)
            latencies.push_back(static_cast<double>(nowNs() - panel->run()->last().postedNs) / 1e6);
    });
    QObject::connect(panel, &TrainerPanel::snapshotShown, panel, [&] { ++r.snapshots; });

    timer.start();
    const qint64 begin = nowNs();
    panel->startButton()->click();
    QEventLoop loop;
    QTimer::singleShot(static_cast<int>(o.seconds * 1000.0), &loop, &QEventLoop::quit);
    loop.exec();
    timer.stop();
    const double elapsed = static_cast<double>(nowNs() - begin) / 1e9;
    r.steps = panel->run()->last().steps;
    panel->pauseButton()->click();
    r.stepsPerSecond = elapsed > 0 ? r.steps / elapsed : 0.0;
    r.ticks = static_cast<int>(ticks.size());
    r.tickP50Ms = percentile(ticks, 0.5);
    r.tickP95Ms = percentile(ticks, 0.95);
    r.tickMaxMs = percentile(ticks, 1.0);
    r.latencyP50Ms = percentile(latencies, 0.5);
    r.latencyP95Ms = percentile(latencies, 0.95);
    log << "task\tn\td_model\td_k\tseconds\tsteps\tsteps_per_s\tsnapshots\tticks\ttick_p50_ms\t"
           "tick_p95_ms\ttick_max_ms\tfps_p95\tsnapshot_to_replot_p50_ms\tsnapshot_to_replot_p95_"
           "ms\n";
    log << "previous-token\t" << o.tokens << "\t8\t4\t" << QString::number(elapsed, 'f', 2) << '\t'
        << r.steps << '\t' << QString::number(r.stepsPerSecond, 'f', 0) << '\t' << r.snapshots
        << '\t' << r.ticks << '\t' << QString::number(r.tickP50Ms, 'f', 2) << '\t'
        << QString::number(r.tickP95Ms, 'f', 2) << '\t' << QString::number(r.tickMaxMs, 'f', 2)
        << '\t' << QString::number(r.tickP95Ms > 0 ? 1000.0 / r.tickP95Ms : 0.0, 'f', 1) << '\t'
        << QString::number(r.latencyP50Ms, 'f', 2) << '\t'
        << QString::number(r.latencyP95Ms, 'f', 2) << '\n';
    log.flush();
    return r;
}

}  // namespace attnlab
