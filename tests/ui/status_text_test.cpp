// SPDX-License-Identifier: GPL-3.0-or-later
// The window words every core status from its code and fields, in the chosen language, and
// counts heads, layers, edits and tokens from 1; the model window shows a refused edit so.
#include "ui/readers/status_text.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/status.h"
#include "support/model_folder.h"
#include "ui/model/model_document.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

// Switches the language for one test and back to English after it.
struct InLanguage {
    explicit InLanguage(const char* code) { setLanguage(QString::fromLatin1(code)); }
    ~InLanguage() { setLanguage(QStringLiteral("en")); }
    InLanguage(const InLanguage&) = delete;
    InLanguage& operator=(const InLanguage&) = delete;
};

TEST(StatusText, EveryCoreCodeIsWordedByTheWindow)
{
    for (int c = 1; c <= static_cast<int>(attn::kLastStatusCode); ++c) {
        attn::Status s;
        s.code = static_cast<attn::StatusCode>(c);
        EXPECT_FALSE(statusMessage(s).isEmpty()) << attn::codeName(s.code);
    }
}

TEST(StatusText, HeadsEditsAndTokensAreNamedFromOne)
{
    attn::Status shape = attn::headFailure(attn::StatusCode::ShapeMismatch, 1, "W_K");
    shape.row = 3;
    shape.col = 2;
    shape.expectedRows = 3;
    shape.expectedCols = 3;
    EXPECT_EQ(statusMessage(shape), QStringLiteral("head 2, W_K should be 3 × 3 but is 3 × 2."));

    attn::Status token = attn::failure(attn::StatusCode::TokenOutOfRange, "", "ids", "...");
    token.position = 1;
    token.value = 80;
    token.limit = 50;
    EXPECT_EQ(statusMessage(token),
              QStringLiteral("Token 2 has the id 80, outside the vocabulary of 50."));

    attn::Status overflow;
    overflow.code = attn::StatusCode::NonFinite;
    overflow.layer = 0;
    overflow.head = 1;
    overflow.stage = "the scores";
    overflow.cause = attn::Cause::Edit;
    overflow.edit = 1;
    overflow.subject = "query layer 1 head 2 index 3 x3e+38";
    EXPECT_EQ(statusMessage(overflow),
              QStringLiteral("layer 1 head 2, the scores: a value is not a finite number. Edit 2 "
                             "(query layer 1 head 2 index 3 x3e+38) caused it; the run without "
                             "edits is finite."));
}

TEST(StatusText, ACoreModelErrorIsTranslatedIntoChinese)
{
    const InLanguage chinese("zh_CN");
    attn::Status tooLong = attn::failure(attn::StatusCode::TooLong, "", "ids", "English");
    tooLong.value = 33;
    tooLong.limit = 32;
    EXPECT_EQ(statusMessage(tooLong),
              QStringLiteral("文本有 33 个词，超过模型的 32 个位置；文本不会被截断。"));

    attn::Status weights;
    weights.code = attn::StatusCode::NonFinite;
    weights.layer = 1;
    weights.head = 0;
    weights.stage = "the query vectors Q";
    weights.cause = attn::Cause::Weights;
    weights.field = "h.1.attn.c_attn.weight";
    EXPECT_EQ(statusMessage(weights),
              QStringLiteral("第 2 层第 1 个头，查询向量 Q：有一个值不是有限数。原因在权重："
                             "h.1.attn.c_attn.weight 含有 NaN 或 Inf。"));
}

TEST(StatusText, TheModelWindowShowsARefusedEditInTheChosenLanguage)
{
    QTemporaryDir dir;
    ModelDocument doc;
    QString error;
    ASSERT_TRUE(doc.open(test::modelFolder(dir, "gpt2_tiny", true), error)) << error.toStdString();
    doc.setText(QStringLiteral("the cat sat."));
    doc.runNow();
    ASSERT_TRUE(QTest::qWaitFor([&doc] { return doc.idle(); }, 20000));
    QSignalSpy refused(&doc, &ModelDocument::errorOccurred);

    ASSERT_FALSE(doc.ablateHead(5, 0, false));  // the model has 2 layers
    ASSERT_EQ(refused.count(), 1);
    EXPECT_EQ(refused.takeFirst().at(0).toString(),
              QStringLiteral("The edit was refused: Edit 1 (ablate layer 6 head 1): the model "
                             "has 2 layers."));

    const InLanguage chinese("zh_CN");
    ASSERT_FALSE(doc.ablateHead(0, 9, false));  // and 4 heads
    ASSERT_EQ(refused.count(), 1);
    const QString shown = refused.takeFirst().at(0).toString();
    EXPECT_TRUE(
        shown.contains(QStringLiteral("编辑 1（ablate layer 1 head 10）：模型只有 4 个头。")))
        << shown.toStdString();
    EXPECT_FALSE(shown.contains(QStringLiteral("the model has"))) << shown.toStdString();
}

}  // namespace
}  // namespace attnlab
