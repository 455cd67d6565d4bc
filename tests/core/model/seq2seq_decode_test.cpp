// SPDX-License-Identifier: GPL-3.0-or-later
// Seq2SeqDecoding (the encoder-decoder's key/value cache): a source encoded once and a target
// grown one row at a time from the start token give what forwardSeq2Seq() of the same ids gives
// (every map of the three kinds, every decoder layer's input and cross-attention input, the
// decoder's output, the logits and prediction) in BART, Marian and T5 (relative position bias,
// gated and tied), with head edits of every kind applied, and it writes the greedy translation.
#include "core/model/seq2seq_decode.h"

#include <gtest/gtest.h>

#include "core/model/generate.h"
#include "core/model/seq2seq_edit.h"
#include "same_run.h"
#include "seq2seq_runs.h"

namespace attn::model {
namespace {

// The same reasoning as Decoding's (decode_test.cpp): one row is summed in another order than a
// whole pass's packed products, so the last bits differ; a row read from the wrong cache rows or
// a position off by one is off by 1e-2 or more.
constexpr float kSeq2SeqMaps = 1e-5f;
constexpr float kSeq2SeqStates = 5e-5f;

void expectSameMaps(const std::vector<FloatMatrix>& got, const std::vector<FloatMatrix>& want,
                    const char* kind, std::size_t layer)
{
    ASSERT_EQ(got.size(), want.size()) << kind << " layer " << layer;
    for (std::size_t h = 0; h < got.size(); ++h)
        EXPECT_LE(test::worstRelative(got[h], want[h]), kSeq2SeqMaps)
            << kind << " layer " << layer << " head " << h;
}

void expectSameSeq2Seq(const Seq2SeqResult& got, const Seq2SeqResult& want)
{
    ASSERT_EQ(got.sourceIds, want.sourceIds);
    ASSERT_EQ(got.targetIds, want.targetIds);
    ASSERT_EQ(got.encoder.size(), want.encoder.size());
    for (std::size_t l = 0; l < got.encoder.size(); ++l)
        expectSameMaps(got.encoder[l].attention, want.encoder[l].attention, "encoder", l);
    ASSERT_EQ(got.decoder.size(), want.decoder.size());
    ASSERT_EQ(got.cross.size(), want.cross.size());
    for (std::size_t l = 0; l < got.decoder.size(); ++l) {
        EXPECT_LE(test::worstRelative(got.decoder[l].hidden, want.decoder[l].hidden),
                  kSeq2SeqStates)
            << "decoder layer " << l;
        EXPECT_LE(test::worstRelative(got.crossInputs[l], want.crossInputs[l]), kSeq2SeqStates)
            << "cross input " << l;
        expectSameMaps(got.decoder[l].attention, want.decoder[l].attention, "decoder", l);
        expectSameMaps(got.cross[l], want.cross[l], "cross", l);
    }
    EXPECT_LE(test::worstRelative(got.finalHidden, want.finalHidden), kSeq2SeqStates);
    EXPECT_LE(test::worstRelative(got.logits, want.logits), kSeq2SeqStates);
    ASSERT_EQ(got.predictions.size(), 1u);
    ASSERT_EQ(want.predictions.size(), 1u);
    EXPECT_EQ(got.predictions[0].position, want.predictions[0].position);
    ASSERT_EQ(got.predictions[0].top.size(), want.predictions[0].top.size());
    for (std::size_t i = 0; i < got.predictions[0].top.size(); ++i)
        EXPECT_NEAR(got.predictions[0].top[i].probability, want.predictions[0].top[i].probability,
                    kSeq2SeqMaps);
}

// Starts on the fixture's source and appends its target (and then ids of our own up to
// `length` tokens), checking the decoding after each token against a whole run of the same ids.
void expectDecodingIsAWholeRun(const char* name, long length,
                               const std::vector<HeadEdit>& edits = {})
{
    SCOPED_TRACE(name);
    test::Seq2SeqRuns r;
    test::prepareSeq2Seq(name, r);
    const Seq2SeqConfig& c = r.model.config();
    std::vector<int> target = r.target;
    for (long i = static_cast<long>(target.size()); i < length; ++i)
        target.push_back(static_cast<int>((5 + 11 * i) % c.vocab));
    ASSERT_EQ(target.front(), c.decoderStartTokenId);
    Seq2SeqDecoding d;
    const attn::Status started = d.start(r.model, r.source, edits);
    ASSERT_TRUE(started.ok()) << describe(started);
    Seq2SeqOptions options;
    options.lastOnly = true;
    if (!edits.empty()) options = withSeq2SeqEdits(options, edits);
    for (std::size_t i = 1; i <= target.size(); ++i) {
        if (i > 1) {
            const attn::Status s = d.append(target[i - 1]);
            ASSERT_TRUE(s.ok()) << describe(s);
        }
        SCOPED_TRACE("after target token " + std::to_string(i));
        Seq2SeqResult got, want;
        d.result(got);
        ASSERT_TRUE(
            forwardSeq2Seq(r.model, r.source, std::span(target).first(i), options, want).ok());
        expectSameSeq2Seq(got, want);
    }
}

HeadEdit seq2seqEdit(HeadEditKind kind, AttentionKind attention, int layer, int head, long index,
                     float scale)
{
    HeadEdit e;
    e.kind = kind;
    e.attention = attention;
    e.layer = layer;
    e.head = head;
    e.index = index;
    e.scale = scale;
    return e;
}

TEST(Seq2SeqDecoding, AppendedTokensGiveWhatAWholeRunGives_BartMarianT5)
{
    for (const char* name : {"bart_f32", "distilbart_bin_f16", "marian_f32", "marian_bf16",
                             "t5_relu_tied_f32", "t5v11_gated_bf16_bin"})
        expectDecodingIsAWholeRun(name, 12);
}

TEST(Seq2SeqDecoding, EditsOfEveryKindApplyAtEveryAppendedToken)
{
    const std::vector<HeadEdit> edits = {
        seq2seqEdit(HeadEditKind::Key, AttentionKind::Cross, 0, 1, 1, 3.0f),
        seq2seqEdit(HeadEditKind::Value, AttentionKind::Cross, 1, 0, 0, -2.0f),
        seq2seqEdit(HeadEditKind::Query, AttentionKind::Decoder, 0, 0, 2, 0.5f),
        seq2seqEdit(HeadEditKind::Key, AttentionKind::Decoder, 1, 1, 5, 4.0f),  // not yet written
        seq2seqEdit(HeadEditKind::Key, AttentionKind::Encoder, 0, 1, 0, 2.0f),
        seq2seqEdit(HeadEditKind::AblateZero, AttentionKind::Cross, 0, 0, 0, 1.0f),
    };
    for (const char* name : {"marian_f32", "t5_relu_tied_f32"}) {
        expectDecodingIsAWholeRun(name, 9, edits);
        test::Seq2SeqRuns r;
        test::prepareSeq2Seq(name, r);
        Seq2SeqDecoding d;
        ASSERT_TRUE(d.start(r.model, r.source, edits).ok());
        EXPECT_TRUE(d.incremental());
    }
}

TEST(Seq2SeqDecoding, AMeanAblationOfADecoderHeadRunsTheTargetWholeAndStillAgrees)
{
    const std::vector<HeadEdit> edits = {
        seq2seqEdit(HeadEditKind::AblateMean, AttentionKind::Decoder, 1, 1, 0, 1.0f)};
    expectDecodingIsAWholeRun("bart_f32", 8, edits);
    test::Seq2SeqRuns r;
    test::prepareSeq2Seq("bart_f32", r);
    Seq2SeqDecoding d;
    ASSERT_TRUE(d.start(r.model, r.source, edits).ok());
    EXPECT_FALSE(d.incremental());
}

TEST(Seq2SeqDecoding, GreedyGenerationWritesTheGreedyTranslation)
{
    for (const char* name : {"bart_f32", "marian_f32", "t5_relu_tied_f32"}) {
        SCOPED_TRACE(name);
        test::Seq2SeqRuns r;
        test::prepareSeq2Seq(name, r);
        std::vector<int> greedy;
        Seq2SeqResult last;
        ASSERT_TRUE(translateGreedy(r.model, r.source, 10, Seq2SeqOptions(), greedy, last).ok());
        GenerateOptions options;
        options.maxNewTokens = 10;
        options.eos = {r.model.config().eosTokenId};
        Seq2SeqGeneration g;
        const attn::Status s = generate(r.model, r.source, options, g);
        ASSERT_TRUE(s.ok()) << describe(s);
        EXPECT_EQ(g.generated(), greedy);
        EXPECT_EQ(g.promptLength, 1);
        EXPECT_EQ(g.decoding.ids().front(), r.model.config().decoderStartTokenId);
    }
}

TEST(Seq2SeqDecoding, RefusesBadIdsAndAFullTargetAndStaysAsItWas)
{
    test::Seq2SeqRuns r;
    test::prepareSeq2Seq("marian_f32", r);
    const Seq2SeqConfig& c = r.model.config();
    Seq2SeqDecoding d;
    EXPECT_EQ(d.append(1).code, attn::StatusCode::EmptyInput);
    EXPECT_EQ(d.start(r.model, std::vector<int>{}).code, attn::StatusCode::EmptyInput);
    EXPECT_FALSE(d.started());
    ASSERT_TRUE(d.start(r.model, r.source).ok());
    const Eigen::VectorXf before = d.logits();
    EXPECT_EQ(d.append(static_cast<int>(c.vocab)).code, attn::StatusCode::TokenOutOfRange);
    EXPECT_EQ(d.length(), 1);
    EXPECT_EQ(d.logits(), before);
    while (d.length() < c.positions) ASSERT_TRUE(d.append(3).ok());
    EXPECT_EQ(d.append(3).code, attn::StatusCode::TooLong);
    EXPECT_EQ(d.length(), c.positions);
    EXPECT_GT(d.cacheBytes(), 0u);
}

}  // namespace
}  // namespace attn::model
