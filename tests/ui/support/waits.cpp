// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/waits.h"

#include <gtest/gtest.h>

#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include "core/random_init.h"
#include "support/model_folder.h"
#include "ui/document/long_document.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/model/seq2seq_document.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_panel.h"

namespace attnlab::testing {

bool settled(const ModelDocument* doc)
{
    return QTest::qWaitFor([doc] { return doc->idle(); }, 20000);
}

bool settled(const Seq2SeqDocument* doc)
{
    return QTest::qWaitFor([doc] { return doc->idle() && !doc->busy(); }, 20000);
}

bool idle(const LongDocument* doc)
{
    return QTest::qWaitFor([doc] { return !doc->computing(); }, 120000);
}

bool runSettled(const TrainerPanel& panel)
{
    return panel.run() && panel.run()->settledTrainer() != nullptr;
}

bool waitSettled(const TrainerPanel& panel)
{
    return QTest::qWaitFor([&] { return runSettled(panel); }, kTrainerWaitMs);
}

bool train(TrainerPanel& panel, int steps)
{
    if (!waitSettled(panel)) return false;
    panel.stepsBox()->setValue(steps);
    panel.startButton()->click();
    return QTest::qWaitFor([&] { return runSettled(panel) && panel.run()->last().steps >= steps; },
                           kTrainerWaitMs);
}

OpenModel::OpenModel() = default;
OpenModel::~OpenModel() = default;

void openModel(OpenModel& o, const QString& text, QSize size)
{
    o.folder = test::modelFolder(o.dir, "gpt2_tiny", true);
    o.window = std::make_unique<ModelWindow>();
    ModelWindowDialogs d;
    d.warn = [](const QString&, const QString&) {};
    o.window->setDialogs(d);
    if (size.isValid()) o.window->resize(size);
    o.window->show();
    ASSERT_TRUE(o.window->openFolder(o.folder));
    o.window->setText(text);
    ASSERT_TRUE(settled(o.window->document()));
}

Session longSession(long n, attn::Mode mode, long heads, long dK, std::uint64_t seed)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = 8;
    spec.dK = dK;
    spec.dV = 4;
    spec.heads = heads;
    spec.mode = mode;
    spec.seed = seed;
    Session s;
    s.input = attn::randomInput(spec);
    s.dModel = 8;
    for (long i = 0; i < n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    return s;
}

bool sameEdits(const std::vector<attn::model::HeadEdit>& a,
               const std::vector<attn::model::HeadEdit>& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].kind != b[i].kind || a[i].layer != b[i].layer || a[i].head != b[i].head ||
            a[i].index != b[i].index || a[i].scale != b[i].scale ||
            a[i].attention != b[i].attention)
            return false;
    return true;
}

}  // namespace attnlab::testing
