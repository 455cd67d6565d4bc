// SPDX-License-Identifier: GPL-3.0-or-later
// Edits of an encoder-decoder's heads: each acts on its own call of the kernel and on what
// follows it, never on what came before; positions count in the sequence the vectors come from.
#include "core/model/seq2seq_edit.h"

#include <gtest/gtest.h>

#include "seq2seq_runs.h"

namespace attn::model {
namespace {

using test::json;
using test::seq2seqFixture;

using Runs = test::Seq2SeqRuns;

TEST(Seq2SeqEdits, ACrossKeyEditChangesThatHeadAndWhatFollowsOnly)
{
    Runs r;
    ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq("marian_f32", r));
    HeadEdit e;
    e.attention = AttentionKind::Cross;
    e.kind = HeadEditKind::Key;
    e.layer = 0;
    e.head = 0;
    e.index = 1;  // a source position: the cross keys are the encoder's
    e.scale = 4.0f;
    const std::vector<HeadEdit> edits{e};
    ASSERT_TRUE(checkSeq2SeqEdits(r.model, static_cast<long>(r.source.size()),
                                  static_cast<long>(r.target.size()), edits)
                    .ok());
    Seq2SeqResult after;
    ASSERT_TRUE(forwardSeq2Seq(r.model, r.source, r.target,
                               withSeq2SeqEdits(Seq2SeqOptions(), edits), after)
                    .ok());
    const Seq2SeqChange change = seq2seqChange(r.before, after);
    for (const auto& layer : change.encoder)
        for (float v : layer) EXPECT_EQ(v, 0.0f) << "the encoder runs before any cross head";
    for (float v : change.decoder.front())
        EXPECT_EQ(v, 0.0f) << "layer 1's masked self-attention runs before its cross heads";
    EXPECT_GT(change.cross[0][0], 1e-3f);
    for (std::size_t h = 1; h < change.cross[0].size(); ++h) EXPECT_EQ(change.cross[0][h], 0.0f);
    // Column 2 (the edited key) gains weight in every row of the edited head or loses it: the
    // rows change there most.
    const FloatMatrix delta = (after.cross[0][0] - r.before.cross[0][0]).cwiseAbs();
    for (long i = 0; i < delta.rows(); ++i)
        EXPECT_EQ(delta.row(i).maxCoeff(), delta(i, 1)) << "row " << i;
    EXPECT_GT((after.logits - r.before.logits).cwiseAbs().maxCoeff(), 0.0f);
}

TEST(Seq2SeqEdits, AnAblatedEncoderHeadChangesEveryLaterMapButNotItsOwnLayer)
{
    Runs r;
    ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq("t5_relu_tied_f32", r));
    HeadEdit e;
    e.attention = AttentionKind::Encoder;
    e.kind = HeadEditKind::AblateZero;
    e.layer = 0;
    e.head = 1;
    Seq2SeqResult after;
    ASSERT_TRUE(
        forwardSeq2Seq(r.model, r.source, r.target, withSeq2SeqEdits(Seq2SeqOptions(), {e}), after)
            .ok());
    const Seq2SeqChange change = seq2seqChange(r.before, after);
    for (float v : change.encoder.front()) EXPECT_EQ(v, 0.0f) << "its own map is computed first";
    EXPECT_GT(change.cross.front().front(), 0.0f) << "the encoder's output changed";
    for (float v : change.decoder.front())
        EXPECT_EQ(v, 0.0f) << "the decoder's first self-attention does not read the encoder";
}

TEST(Seq2SeqEdits, PositionsAreCheckedInTheSequenceTheVectorsComeFrom)
{
    Runs r;
    ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq("bart_f32", r));
    const long m = static_cast<long>(r.source.size());
    const long n = static_cast<long>(r.target.size());
    ASSERT_NE(m, n) << "the fixture's two sides must differ in length for this test";
    HeadEdit key;
    key.attention = AttentionKind::Cross;
    key.kind = HeadEditKind::Key;
    key.index = m;  // one past the source
    attn::Status s = checkSeq2SeqEdits(r.model, m, n, std::vector<HeadEdit>{key});
    EXPECT_EQ(s.code, attn::StatusCode::BadPosition);
    EXPECT_NE(s.detail.find("the source has " + std::to_string(m) + " tokens"), std::string::npos)
        << s.detail;
    HeadEdit query = key;
    query.kind = HeadEditKind::Query;
    query.index = n;
    s = checkSeq2SeqEdits(r.model, m, n, std::vector<HeadEdit>{query});
    EXPECT_NE(s.detail.find("the target has " + std::to_string(n) + " tokens"), std::string::npos)
        << s.detail;
    HeadEdit layer = key;
    layer.index = 0;
    layer.attention = AttentionKind::Encoder;
    layer.layer = static_cast<int>(r.model.config().encoderLayers);
    s = checkSeq2SeqEdits(r.model, m, n, std::vector<HeadEdit>{layer});
    EXPECT_EQ(s.code, attn::StatusCode::BadLayer);
    EXPECT_EQ(s.subject.rfind("encoder key layer", 0), 0u) << s.subject;
    // The same vector twice, and the same index in another call: only the first is a duplicate.
    HeadEdit other = key;
    other.index = 0;
    HeadEdit decoder = other;
    decoder.attention = AttentionKind::Decoder;
    EXPECT_TRUE(checkSeq2SeqEdits(r.model, m, n, std::vector<HeadEdit>{other, decoder}).ok());
    s = checkSeq2SeqEdits(r.model, m, n, std::vector<HeadEdit>{other, other});
    EXPECT_EQ(s.code, attn::StatusCode::DuplicateEdit);
}

}  // namespace
}  // namespace attn::model
