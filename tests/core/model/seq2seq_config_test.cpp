// SPDX-License-Identifier: GPL-3.0-or-later
// config.json of the encoder-decoders (the defaults of BartConfig, MarianConfig and T5Config, and
// every setting that would change the result refused by name), and opening their checkpoints:
// a missing or misshapen tensor named.
#include "core/model/seq2seq_config.h"

#include <gtest/gtest.h>

#include "core/model/seq2seq_model.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::seq2seqFixture;
using test::TempDir;

attn::Status parsed(const json& j, Seq2SeqConfig& c)
{
    return parseSeq2SeqConfig(j.dump(), "config.json", c);
}

TEST(Seq2SeqConfig, HubDefaultsFillWhatTheFileLeavesOut)
{
    Seq2SeqConfig c;
    ASSERT_TRUE(parsed({{"model_type", "marian"},
                        {"d_model", 64},
                        {"encoder_attention_heads", 4},
                        {"decoder_attention_heads", 4},
                        {"vocab_size", 100},
                        {"pad_token_id", 99}},
                       c)
                    .ok());
    EXPECT_EQ(c.family, Seq2SeqFamily::Marian);
    EXPECT_EQ(c.headDim, 16);
    EXPECT_EQ(c.encoderLayers, 12);
    EXPECT_EQ(c.decoderStartTokenId, 99);  // Marian starts the decoder with its pad token
    EXPECT_EQ(c.eosTokenId, 0);
    EXPECT_EQ(c.activation, Activation::GeluErf);  // MarianConfig's default; opus-mt says swish
    ASSERT_TRUE(parsed({{"model_type", "t5"}, {"vocab_size", 200}}, c).ok());
    EXPECT_EQ(c.family, Seq2SeqFamily::T5);
    EXPECT_EQ(c.width, 512);
    EXPECT_EQ(c.headDim, 64);
    EXPECT_EQ(c.relativeBuckets, 32);
    EXPECT_EQ(c.relativeMaxDistance, 128);
    EXPECT_EQ(c.decoderLayers, c.encoderLayers);
    EXPECT_EQ(c.eosTokenId, 1);
    EXPECT_FALSE(c.gatedFfn);
    ASSERT_TRUE(
        parsed({{"model_type", "t5"}, {"vocab_size", 200}, {"feed_forward_proj", "gated-gelu"}}, c)
            .ok());
    EXPECT_TRUE(c.gatedFfn);
    EXPECT_EQ(c.activation, Activation::GeluTanh);  // "gated-gelu" means gelu_new
}

TEST(Seq2SeqConfig, SettingsThatWouldChangeTheResultAreRefusedByName)
{
    const json bart = {{"model_type", "bart"},
                       {"d_model", 32},
                       {"vocab_size", 50},
                       {"encoder_attention_heads", 4},
                       {"decoder_attention_heads", 4}};
    const struct {
        json change;
        const char* field;
        const char* says;
    } cases[] = {
        {{{"decoder_attention_heads", 2}}, "decoder_attention_heads", "differs"},
        {{{"activation_function", "mish"}}, "activation_function", "\"mish\" is not supported"},
        {{{"d_model", 30}}, "d_model", "not divisible"},
        {{{"pad_token_id", 50}}, "pad_token_id", "outside the vocabulary of 50"},
        {{{"model_type", "marian"},
          {"pad_token_id", 49},
          {"share_encoder_decoder_embeddings", false}},
         "share_encoder_decoder_embeddings",
         "not supported"},
        {{{"model_type", "marian"}, {"pad_token_id", 49}, {"decoder_vocab_size", 60}},
         "decoder_vocab_size",
         "differs"},
        {{{"model_type", "t5"}, {"feed_forward_proj", "gated-gelu-x"}},
         "feed_forward_proj",
         "not supported"},
        {{{"model_type", "t5"}, {"relative_attention_num_buckets", 2}},
         "relative_attention_num_buckets",
         "at least 4"},
        {{{"model_type", "t5"},
          {"relative_attention_num_buckets", 32},
          {"relative_attention_max_distance", 8}},
         "relative_attention_max_distance",
         "above a quarter"},
        {{{"model_type", "gpt2"}}, "model_type", "not an encoder-decoder"},
    };
    for (const auto& k : cases) {
        json j = bart;
        j.update(k.change);
        Seq2SeqConfig c;
        const attn::Status s = parsed(j, c);
        ASSERT_FALSE(s.ok()) << j.dump();
        EXPECT_EQ(s.field, k.field) << j.dump();
        EXPECT_NE(s.detail.find(k.says), std::string::npos) << attn::describe(s);
        EXPECT_EQ(s.file, "config.json");
    }
    Seq2SeqConfig c;
    EXPECT_FALSE(parseSeq2SeqConfig("{\"model_type\": ", "config.json", c).ok());
    EXPECT_FALSE(parseSeq2SeqConfig("[1, 2]", "config.json", c).ok());
}

TEST(Seq2SeqConfig, TheModelTypeSaysWhichLoaderAFolderNeeds)
{
    EXPECT_EQ(configModelType((seq2seqFixture("t5_relu_tied_f32") / "config.json").string()), "t5");
    EXPECT_EQ(configModelType((seq2seqFixture("marian_f32") / "config.json").string()), "marian");
    EXPECT_EQ(configModelType("/nonexistent/config.json"), "");
    EXPECT_TRUE(isSeq2SeqType("bart"));
    EXPECT_FALSE(isSeq2SeqType("gpt2"));
}

void copyFixture(const std::string& name, const test::fs::path& to)
{
    test::fs::copy(seq2seqFixture(name), to, test::fs::copy_options::recursive);
}

TEST(Seq2SeqLoad, AMissingOrMisshapenTensorIsNamed)
{
    TempDir dir;
    const auto folder = dir.path() / "bart";
    copyFixture("bart_f32", folder);
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["model.decoder.layers.1.encoder_attn.k_proj.renamed"] =
            h["model.decoder.layers.1.encoder_attn.k_proj.weight"];
        h.erase("model.decoder.layers.1.encoder_attn.k_proj.weight");
    });
    Seq2SeqModel m;
    attn::Status s = Seq2SeqModel::load(folder.string(), m);
    EXPECT_EQ(s.code, attn::StatusCode::MissingTensor);
    EXPECT_NE(attn::describe(s).find("model.decoder.layers.1.encoder_attn.k_proj.weight"),
              std::string::npos)
        << attn::describe(s);

    const auto t5 = dir.path() / "t5";
    copyFixture("t5_relu_tied_f32", t5);
    test::rewriteHeader(t5 / "model.safetensors", [](json& h) {
        h["encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"]["shape"] = {4, 8};
    });
    s = Seq2SeqModel::load(t5.string(), m);
    EXPECT_EQ(s.code, attn::StatusCode::TensorShape);
    EXPECT_NE(attn::describe(s).find("relative_attention_bias"), std::string::npos)
        << attn::describe(s);
    EXPECT_FALSE(m.loaded());
}

TEST(Seq2SeqLoad, AFolderWithoutConfigOrWeightsIsRefusedNamingTheFile)
{
    TempDir dir;
    Seq2SeqModel m;
    attn::Status s = Seq2SeqModel::load(dir.path().string(), m);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(attn::describe(s).find("config.json"), std::string::npos) << attn::describe(s);
    test::writeBytes(dir.path() / "config.json",
                     test::readBytes(seq2seqFixture("marian_bf16") / "config.json"));
    s = Seq2SeqModel::load(dir.path().string(), m);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(attn::describe(s).find("safetensors"), std::string::npos) << attn::describe(s);
}

}  // namespace
}  // namespace attn::model
