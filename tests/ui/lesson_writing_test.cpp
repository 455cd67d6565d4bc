// SPDX-License-Identifier: GPL-3.0-or-later
// The lessons "Temperature: the same softmax" and "The model writes" (resources/lessons/
// temperature.*.md, model-writes.*.md) give figures; each is measured here on what the reader
// uses, and found in both texts as written there. Temperature: the Tang poem model's next
// character after the lesson's text (its entropy at each temperature, in nats, from the core's
// sampler over the whole vocabulary), the line each of the lesson's buttons writes, and the
// workbench row the lesson opens with √d_k scaling on and off (the row inspector's entropy).
// The model writes: the letters model's greedy letters after its repeated text, with its
// strongest induction head on and off, through the lesson's buttons.
#include <cmath>
#include <gtest/gtest.h>

#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "core/head_scores.h"
#include "core/model/head_edit.h"
#include "core/model/sampling.h"
#include "core/train/phase_change.h"
#include "ui/document/document.h"
#include "ui/model/generate_panel.h"
#include "ui/model/head_scores_source.h"
#include "ui/model/model_document.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/writing_lesson_launcher.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/panels/lesson_panel.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

constexpr int kWritingWaitMs = 120000;

// The lesson's text in one language, as compiled in.
QString writingLessonText(const QString& id, const QString& language)
{
    QFile f(QStringLiteral(":/lessons/%1.%2.md").arg(id, language));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// `value` as the texts write it: `decimals` after the point.
QString written(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

void expectInText(const QString& id, const QString& language, const QString& figure)
{
    EXPECT_TRUE(writingLessonText(id, language).contains(figure))
        << id.toStdString() << "." << language.toStdString() << " lacks " << figure.toStdString();
}

// `en` in the English text and `zh` in the Chinese one.
void expectInTexts(const QString& id, const QString& en, const QString& zh)
{
    expectInText(id, QStringLiteral("en"), en);
    expectInText(id, QStringLiteral("zh"), zh);
}

void expectInBothTexts(const QString& id, const QString& figure)
{
    expectInTexts(id, figure, figure);
}

WritingLessonLauncher* openWritingLesson(MainWindow& main, const QString& id,
                                         const QString& launcher)
{
    auto* lessons = main.findChild<LessonActions*>();
    if (!lessons || !lessons->openLesson(id)) return nullptr;
    return lessons->lessonPanel()->findChild<WritingLessonLauncher*>(launcher);
}

// Waits until `doc` has written `count` tokens after `text` with `edits` head edits.
bool wroteAfter(ModelDocument* doc, const QString& text, long count, std::size_t edits = 0)
{
    return QTest::qWaitFor(
        [&] {
            const auto s = doc->snapshot();
            return !doc->writing() && doc->idle() && s && s->text == text &&
                   s->written.count() == count && s->edits.size() == edits;
        },
        kWritingWaitMs);
}

// The entropy in nats of the next token after the published run's text at `temperature`: the
// core's sampler ranks every token of the vocabulary with its probability.
double nextTokenEntropy(const ModelSnapshot& snap, double temperature)
{
    const attn::model::ForwardResult& r = snap.result;
    const Eigen::VectorXf logits = r.logits.row(r.logits.rows() - 1).transpose();
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap.tokens) ids.push_back(t.id);
    attn::model::SamplingSettings settings;
    settings.temperature = temperature;
    attn::model::TokenRng rng(1);
    const attn::model::TokenDraw draw =
        attn::model::chooseToken(logits, ids, settings, rng, logits.size());
    EXPECT_EQ(static_cast<long>(draw.ranked.size()), logits.size());
    double h = 0.0;
    for (const attn::model::Candidate& c : draw.ranked)
        if (c.probability > 0.0) h -= c.probability * std::log(c.probability);
    return h;
}

constexpr const char* kTemperatureLesson = "temperature";
constexpr const char* kWritesLesson = "model-writes";

TEST(LessonTemperature, TheTangModelsNextCharacterSpreadsAsTheTextSaysAtEachTemperature)
{
    const QString id = QString::fromLatin1(kTemperatureLesson);
    QTemporaryDir home;
    qputenv("XDG_CACHE_HOME", home.filePath(QStringLiteral("cache")).toLocal8Bit());
    QString error;
    const QString folder = resolveModelFolder(builtinReference(QStringLiteral("tang")), error);
    ASSERT_FALSE(folder.isEmpty()) << error.toStdString();
    ModelDocument doc;
    ASSERT_TRUE(doc.open(folder, error)) << error.toStdString();
    const QString text = ModelLessonLauncher::lessonText(QStringLiteral("tang"));
    doc.setText(text);
    doc.runNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc.idle() && doc.snapshot(); }, kWritingWaitMs));
    const ModelSnapshot& snap = *doc.snapshot();
    expectInBothTexts(id, text);
    // "d_k = 16, the width of a head of the Tang model", which divides by sqrt(16) = 4.
    EXPECT_EQ(doc.loaded()->model.config().headDim(), 16);
    // "鸟 takes nearly all the probability"
    ASSERT_FALSE(snap.predictions.empty());
    EXPECT_EQ(snap.predictions.back().top.front().token, QStringLiteral("鸟"));
    // The entropies, in nats, to the two decimals written: 0.00, 0.03, 0.23 (T = 1), 1.47.
    double previous = -1.0;
    for (const double t : {0.2, 0.7, 1.0, 1.5}) {
        const double h = nextTokenEntropy(snap, t);
        EXPECT_GT(h, previous) << "T = " << t;
        previous = h;
        expectInTexts(id, written(h, 2) + QStringLiteral(" nats"),
                      written(h, 2) + QStringLiteral(" nat"));
        RecordProperty("entropy_T" + std::to_string(t), std::to_string(h));
    }
    for (const double t : {0.2, 0.7, 1.5})
        expectInBothTexts(id, QStringLiteral("**T = %1**").arg(written(t, 1)));
    // "about as uncertain as a choice among 4 equally likely characters": e^H rounds to 4.
    const long among = std::lround(std::exp(nextTokenEntropy(snap, 1.5)));
    expectInTexts(id, QStringLiteral("among %1 equally likely").arg(among),
                  QStringLiteral("在 %1 个等可能的字").arg(among));
}

TEST(LessonTemperature, EachButtonWritesTheLineTheTextGives)
{
    const QString id = QString::fromLatin1(kTemperatureLesson);
    MainWindow main;
    main.show();
    WritingLessonLauncher* launcher =
        openWritingLesson(main, id, QStringLiteral("temperatureLessonLauncher"));
    ASSERT_TRUE(launcher);
    expectInTexts(id,
                  QStringLiteral("write %1 characters with seed %2")
                      .arg(WritingLessonLauncher::kPoemTokens)
                      .arg(WritingLessonLauncher::kSeed),
                  QStringLiteral("以种子 %2、按钮上的温度续写 %1 个字")
                      .arg(WritingLessonLauncher::kPoemTokens)
                      .arg(WritingLessonLauncher::kSeed));
    const QString text = ModelLessonLauncher::lessonText(QStringLiteral("tang"));
    for (std::size_t i = 0; i < WritingLessonLauncher::kTemperatures.size(); ++i) {
        const double t = WritingLessonLauncher::kTemperatures[i];
        launcher->temperatureButton(static_cast<int>(i))->click();
        ModelWindow* w = main.modelWindows()->window();
        ModelDocument* doc = w->document();
        ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kPoemTokens));
        // Through the Generate panel, which shows what wrote.
        EXPECT_EQ(w->generatePanel()->temperatureBox()->value(), t);
        EXPECT_EQ(w->generatePanel()->seedBox()->value(), WritingLessonLauncher::kSeed);
        EXPECT_DOUBLE_EQ(doc->sampling().temperature, t);
        // The line as the texts quote it, its line break as " / ".
        const QString line = doc->snapshot()
                                 ->writtenText.mid(text.size())
                                 .replace(QLatin1Char('\n'), QStringLiteral("/ "));
        expectInTexts(id, QStringLiteral("T = %1: %2").arg(written(t, 1), line),
                      QStringLiteral("T = %1：%2").arg(written(t, 1), line));
        // "it does not recite Meng Haoran's poem"
        EXPECT_FALSE(line.contains(QStringLiteral("夜来风雨声")));
        RecordProperty("line_T" + std::to_string(t), line.toStdString());
    }
    delete main.modelWindows()->existing();
}

TEST(LessonTemperature, TheWorkbenchRowIsAsSharpWithoutScalingAsTheTextSaysAndTauFourIsRootDk)
{
    const QString id = QString::fromLatin1(kTemperatureLesson);
    MainWindow main;
    auto* lessons = main.findChild<LessonActions*>();
    ASSERT_TRUE(lessons && lessons->openLesson(id));
    Document* doc = main.document();
    const Session& s = doc->session();
    const int row = doc->selectedRow();
    // "the same ten characters ... d_k = 16 ... The row of 啼"
    EXPECT_EQ(s.targetTokens.join(QString()),
              ModelLessonLauncher::lessonText(QStringLiteral("tang")));
    EXPECT_EQ(s.targetTokens.at(row), QStringLiteral("啼"));
    EXPECT_EQ(s.input.heads.front().W_Q.cols(), 16);
    EXPECT_EQ(s.input.scaling, attn::Scaling::SqrtDk);
    const auto entropy = [&] { return doc->currentHead()->diagnostics.entropy(row); };
    const auto maxWeight = [&] { return doc->currentHead()->diagnostics.maxWeight(row); };
    const long keys = doc->currentHead()->weights.cols();
    EXPECT_EQ(row + 1, keys);  // causal: the last row reads every key
    expectInTexts(id,
                  QStringLiteral("its %1 keys would be %2 nats")
                      .arg(keys)
                      .arg(written(std::log(double(keys)), 2)),
                  QStringLiteral("均匀分给 %1 个键时是 %2 nat")
                      .arg(keys)
                      .arg(written(std::log(double(keys)), 2)));
    const double scaled = entropy();
    expectInTexts(id,
                  QStringLiteral("(on): %1 nats, max weight %2")
                      .arg(written(scaled, 2), written(maxWeight(), 2)),
                  QStringLiteral("（打开）：%1 nat，最大权重 %2")
                      .arg(written(scaled, 2), written(maxWeight(), 2)));
    ASSERT_TRUE(doc->setScaling(attn::Scaling::None));
    doc->flush();
    expectInTexts(id,
                  QStringLiteral("Controls panel): %1 nats, max weight %2")
                      .arg(written(entropy(), 2), written(maxWeight(), 2)),
                  QStringLiteral("「控制」面板里）：%1 nat，最大权重 %2")
                      .arg(written(entropy(), 2), written(maxWeight(), 2)));
    EXPECT_GT(maxWeight(), 0.9);  // "nearly one-hot"
    // "Temperature τ with τ = 4: the same ... because √16 = 4"
    ASSERT_TRUE(doc->setScaling(attn::Scaling::Temperature));
    ASSERT_TRUE(doc->setTemperature(4.0));
    doc->flush();
    EXPECT_NEAR(entropy(), scaled, 1e-12);
    expectInTexts(id, QStringLiteral("τ = 4: the same %1 nats").arg(written(scaled, 2)),
                  QStringLiteral("τ = 4：和打开缩放时一样是 %1 nat").arg(written(scaled, 2)));
}

// The letters written after `text` (its pattern twice) and how many continue the pattern.
std::pair<QString, int> lettersAndMatches(const ModelSnapshot& s, const QString& text)
{
    const QString letters = s.writtenText.mid(text.size());
    const QString pattern = text.left(text.size() / 2);
    int matches = 0;
    for (int i = 0; i < letters.size(); ++i)
        if (letters.at(i) == pattern.at(i % pattern.size())) ++matches;
    return {letters, matches};
}

QString outOf(int matches, bool still = false)
{
    return QStringLiteral("%1**%2 of %3**")
        .arg(still ? QStringLiteral("still ") : QString())
        .arg(matches)
        .arg(WritingLessonLauncher::kLetterTokens);
}

QString outOfZh(int matches, bool still = false)
{
    return QStringLiteral("%1**%2 个中%3 %4 个**")
        .arg(still ? QStringLiteral("仍然是 ") : QString())
        .arg(WritingLessonLauncher::kLetterTokens)
        .arg(matches == WritingLessonLauncher::kLetterTokens ? QStringLiteral("有")
                                                             : QStringLiteral("只有"))
        .arg(matches);
}

std::vector<std::pair<int, int>> ablatedHeads(const ModelDocument& doc)
{
    std::vector<std::pair<int, int>> heads;
    for (const attn::model::HeadEdit& e : doc.edits()) heads.emplace_back(e.layer, e.head);
    return heads;
}

TEST(LessonTheModelWrites, ItCopiesThePatternWithOneInductionHeadOffAndStopsWithAllOff)
{
    const QString id = QString::fromLatin1(kWritesLesson);
    MainWindow main;
    main.show();
    WritingLessonLauncher* launcher =
        openWritingLesson(main, id, QStringLiteral("writingLessonLauncher"));
    ASSERT_TRUE(launcher);
    const QString text = ModelLessonLauncher::lessonText(QStringLiteral("induction"));
    const QString pattern = text.left(text.size() / 2);
    ASSERT_EQ(pattern + pattern, text);
    expectInBothTexts(id, QStringLiteral("`%1`").arg(pattern));

    launcher->writeButton()->click();
    ModelWindow* w = main.modelWindows()->window();
    ModelDocument* doc = w->document();
    ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kLetterTokens));
    // "2 layers × 4 heads", "16 letters, always the most probable one (temperature 0)"
    expectInTexts(id, QStringLiteral("(%1 layers × %2 heads)").arg(doc->layers()).arg(doc->heads()),
                  QStringLiteral("（%1 层 × %2 个头）").arg(doc->layers()).arg(doc->heads()));
    expectInTexts(id, QStringLiteral("writes %1 letters").arg(WritingLessonLauncher::kLetterTokens),
                  QStringLiteral("写出 %1 个字母").arg(WritingLessonLauncher::kLetterTokens));
    EXPECT_EQ(doc->sampling().temperature, 0.0);
    const auto [on, onMatches] = lettersAndMatches(*doc->snapshot(), text);
    EXPECT_EQ(on, pattern);
    expectInTexts(id, outOf(onMatches), outOfZh(onMatches));

    // The strongest induction head: layer 2, head 2 as the text counts.
    launcher->strongestOffButton()->click();
    ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kLetterTokens, 1));
    ASSERT_EQ(ablatedHeads(*doc), (std::vector<std::pair<int, int>>{{1, 1}}));
    expectInTexts(id, QStringLiteral("layer 2, head 2"), QStringLiteral("第 2 层的头 2"));
    const auto [one, oneMatches] = lettersAndMatches(*doc->snapshot(), text);
    expectInTexts(id, outOf(oneMatches, true), outOfZh(oneMatches, true));
    RecordProperty("strongest_off", one.toStdString());

    // Every head whose induction score reaches the trainer's floor: heads 2, 3 and 4 of layer 2.
    launcher->allOffButton()->click();
    ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kLetterTokens, 3));
    ASSERT_EQ(ablatedHeads(*doc), (std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {1, 3}}));
    expectInTexts(id, QStringLiteral("heads 2, 3 and 4 of layer 2"),
                  QStringLiteral("第 2 层的头 2、3、4"));
    expectInTexts(
        id,
        QStringLiteral("induction score reaches %1")
            .arg(written(attn::gpt2::kPhaseInductionFloor, 1)),
        QStringLiteral("归纳分数达到 %1").arg(written(attn::gpt2::kPhaseInductionFloor, 1)));
    const auto [off, offMatches] = lettersAndMatches(*doc->snapshot(), text);
    expectInBothTexts(id, QStringLiteral("`%1`").arg(off));
    expectInTexts(id, outOf(offMatches), outOfZh(offMatches));
    EXPECT_LT(offMatches, WritingLessonLauncher::kLetterTokens / 4);

    // "Ctrl+Z ... brings the heads back one by one, and the pattern with them."
    for (int i = 0; i < 2; ++i) doc->undoStack()->undo();
    ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kLetterTokens, 1));
    doc->undoStack()->undo();
    ASSERT_TRUE(wroteAfter(doc, text, WritingLessonLauncher::kLetterTokens, 0));
    EXPECT_EQ(lettersAndMatches(*doc->snapshot(), text).first, pattern);
    delete w;
}

}  // namespace
}  // namespace attnlab
