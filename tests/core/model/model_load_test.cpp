// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a checkpoint folder: config.json fields, tensor names with and without prefixes,
// and a refusal naming the file and tensor or field for every broken folder.
#include <gtest/gtest.h>

#include "core/model/model.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::TempDir;

TEST(ModelConfig, ReadsGpt2Fields)
{
    ModelConfig c;
    ASSERT_TRUE(readConfig((test::modelFixture("gpt2_tiny") / "config.json").string(), c).ok());
    EXPECT_EQ(c.family, Family::Gpt2);
    EXPECT_EQ(c.layers, 2);
    EXPECT_EQ(c.heads, 4);
    EXPECT_EQ(c.width, 16);
    EXPECT_EQ(c.inner, 64);  // n_inner null: 4 * n_embd
    EXPECT_EQ(c.positions, 32);
    EXPECT_EQ(c.vocab, 64);
    EXPECT_FLOAT_EQ(c.layerNormEps, 1e-5f);
    EXPECT_EQ(c.activation, Activation::GeluTanh);
}

TEST(ModelConfig, ReadsBertFields)
{
    ModelConfig c;
    ASSERT_TRUE(readConfig((test::modelFixture("bert_tiny") / "config.json").string(), c).ok());
    EXPECT_EQ(c.family, Family::Bert);
    EXPECT_EQ(c.layers, 2);
    EXPECT_EQ(c.heads, 3);
    EXPECT_EQ(c.width, 24);
    EXPECT_EQ(c.inner, 48);
    EXPECT_EQ(c.positions, 32);
    EXPECT_EQ(c.typeVocab, 2);
    EXPECT_EQ(c.vocab, 80);
    EXPECT_FLOAT_EQ(c.layerNormEps, 1e-12f);
    EXPECT_EQ(c.activation, Activation::GeluErf);
}

TEST(ModelConfig, ReadsDistilgpt2StyleConfigWithNCtx)
{
    // distilgpt2 is model_type gpt2 with 6 layers; old configs give n_ctx, not n_positions.
    const std::string text = R"({"model_type": "gpt2", "_name_or_path": "distilgpt2", "n_layer": 6,
        "n_head": 12, "n_embd": 768, "n_ctx": 1024, "vocab_size": 50257,
        "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05})";
    ModelConfig c;
    ASSERT_TRUE(parseConfig(text, "config.json", c).ok());
    EXPECT_EQ(c.layers, 6);
    EXPECT_EQ(c.positions, 1024);
    EXPECT_EQ(c.headDim(), 64);
}

TEST(ModelConfig, RefusesUnknownModelTypeNamingIt)
{
    ModelConfig c;
    const attn::Status s = parseConfig(R"({"model_type": "t5", "d_model": 512})", "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::UnsupportedModel);
    EXPECT_NE(attn::describe(s).find("cfg.json"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("\"t5\""), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("gpt2, bert"), std::string::npos) << attn::describe(s);
}

TEST(ModelConfig, RefusesMissingOrBadFields)
{
    ModelConfig c;
    attn::Status s = parseConfig(R"({"model_type": "gpt2", "n_layer": 2, "n_head": 2,
        "n_embd": 8, "vocab_size": 10})",
                                 "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::ConfigField);
    EXPECT_EQ(s.field, "n_ctx");
    s = parseConfig(R"({"model_type": "bert", "num_hidden_layers": 2, "num_attention_heads": 5,
        "hidden_size": 8, "intermediate_size": 16, "max_position_embeddings": 8,
        "vocab_size": 10})",
                    "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::ConfigField);
    EXPECT_NE(attn::describe(s).find("not divisible"), std::string::npos) << attn::describe(s);
    s = parseConfig(R"({"model_type": "gpt2", "n_layer": -1})", "cfg.json", c);
    EXPECT_EQ(s.field, "n_layer");
    s = parseConfig("not json", "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::ConfigField);
    s = parseConfig(R"({"n_layer": 2})", "cfg.json", c);
    EXPECT_EQ(s.field, "model_type");
    s = parseConfig(R"({"model_type": "gpt2", "n_layer": 2, "n_head": 2, "n_embd": 8,
        "n_positions": 8, "vocab_size": 10, "activation_function": "swish"})",
                    "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::UnsupportedModel);
    EXPECT_NE(attn::describe(s).find("swish"), std::string::npos) << attn::describe(s);
}

// A refusal names the range it holds to: "above 0" alone for 1e308, which is above 0, said
// nothing. One token is no vocabulary: every prediction would be that token at 100%.
TEST(ModelConfig, RefusalsStateTheRangeAndAVocabularyNeedsTwoTokens)
{
    std::ifstream in(test::decoderFixture("llama2_sharded_f16") / "config.json");
    json j = json::parse(in);
    j["rope_theta"] = 1e308;
    ModelConfig c;
    attn::Status s = parseConfig(j.dump(), "config.json", c);
    EXPECT_EQ(s.field, "rope_theta");
    EXPECT_NE(s.detail.find("below 1e300"), std::string::npos) << s.detail;
    j["rope_theta"] = 10000.0;
    j["vocab_size"] = 1;
    s = parseConfig(j.dump(), "config.json", c);
    EXPECT_EQ(s.field, "vocab_size");
    EXPECT_NE(s.detail.find("from 2 to"), std::string::npos) << s.detail;
    s = parseConfig(R"({"model_type": "gpt2", "n_layer": 1, "n_head": 1, "n_embd": 8,
        "n_positions": 8, "vocab_size": 1})",
                    "cfg.json", c);
    EXPECT_EQ(s.field, "vocab_size");
}

TEST(ModelConfig, RefusesAValueNestedDeeperThan64Levels)
{
    // Its message once printed the value with a recursive dump(): 10^5 levels overflowed the
    // stack.
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    ModelConfig c;
    const attn::Status s =
        parseConfig(R"({"model_type": "gpt2", "n_layer": )" + deep + "}", "cfg.json", c);
    EXPECT_EQ(s.code, attn::StatusCode::ConfigField);
    EXPECT_NE(attn::describe(s).find("nested more than 64 levels"), std::string::npos)
        << attn::describe(s);
    // A wrong value is quoted, shortened.
    // Appended, not `literal + std::string(...)`: GCC 12 at -O3 warns falsely (-Warray-bounds)
    // on that concatenation.
    std::string wrong = R"({"model_type": "gpt2", "n_layer": ")";
    wrong.append(1000, 'x');
    wrong += "\"}";
    const attn::Status t = parseConfig(wrong, "cfg.json", c);
    EXPECT_NE(attn::describe(t).find("got \"xxx"), std::string::npos) << attn::describe(t);
    EXPECT_LT(attn::describe(t).size(), 200u) << attn::describe(t);
}

TEST(ModelLoad, BindsEveryFixtureWithAndWithoutPrefix)
{
    for (const char* name :
         {"gpt2_tiny", "gpt2_tiny_f16_prefixed", "bert_tiny", "bert_tiny_bf16_prefixed"}) {
        Model m;
        const attn::Status s = Model::load(test::modelFixture(name).string(), m);
        ASSERT_TRUE(s.ok()) << name << ": " << attn::describe(s);
        EXPECT_TRUE(m.loaded());
        EXPECT_TRUE(m.hasLanguageHead());
        EXPECT_EQ(m.layers().size(), 2u);
    }
}

void expectLoadRefused(const test::fs::path& folder, attn::StatusCode code,
                       const std::string& inMessage)
{
    Model m;
    const attn::Status s = Model::load(folder.string(), m);
    EXPECT_EQ(s.code, code) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find(inMessage), std::string::npos) << attn::describe(s);
    EXPECT_FALSE(m.loaded());
}

TEST(ModelLoad, RefusesFolderWithoutCheckpointOrConfig)
{
    TempDir dir;
    const auto a = dir.copyOf("gpt2_tiny");
    test::fs::remove(a / "model.safetensors");
    expectLoadRefused(a, attn::StatusCode::FileOpen, "model.safetensors: missing");
    const auto b = dir.copyOf("bert_tiny");
    test::fs::remove(b / "config.json");
    expectLoadRefused(b, attn::StatusCode::FileOpen, "config.json");
    expectLoadRefused(dir.path() / "no_such_folder", attn::StatusCode::FileOpen, "config.json");
}

TEST(ModelLoad, RefusesTruncatedCheckpoint)
{
    TempDir dir;
    const auto folder = dir.copyOf("bert_tiny");
    const std::string bytes = test::readBytes(folder / "model.safetensors");
    test::writeBytes(folder / "model.safetensors", bytes.substr(0, bytes.size() - 100));
    expectLoadRefused(folder, attn::StatusCode::BadOffsets, "past the data section");
}

TEST(ModelLoad, RefusesHeaderWhoseOffsetsLie)
{
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["ln_f.bias"]["data_offsets"][1] =
            h["ln_f.bias"]["data_offsets"][1].get<long>() + 1'000'000;
    });
    expectLoadRefused(folder, attn::StatusCode::BadOffsets, "'ln_f.bias'");
}

TEST(ModelLoad, RefusesOverlappingTensors)
{
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["h.0.ln_1.bias"]["data_offsets"] = h["h.0.ln_1.weight"]["data_offsets"];
    });
    expectLoadRefused(folder, attn::StatusCode::Overlap, "overlap");
}

TEST(ModelLoad, RefusesWrongShapeNamingTheTensor)
{
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    // Same byte count, wrong shape: [16, 16] stored as [8, 32].
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["h.1.attn.c_proj.weight"]["shape"] = {8, 32};
    });
    expectLoadRefused(folder, attn::StatusCode::TensorShape,
                      "h.1.attn.c_proj.weight: shape [8, 32], expected [16, 16]");
}

TEST(ModelLoad, RefusesMissingTensorNamingIt)
{
    TempDir dir;
    const auto folder = dir.copyOf("bert_tiny_bf16_prefixed");
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["bert.encoder.layer.1.attention.self.key.renamed"] =
            h["bert.encoder.layer.1.attention.self.key.bias"];
        h.erase("bert.encoder.layer.1.attention.self.key.bias");
    });
    expectLoadRefused(folder, attn::StatusCode::MissingTensor,
                      "bert.encoder.layer.1.attention.self.key.bias");
}

TEST(ModelLoad, RefusesUnknownModelType)
{
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    test::writeBytes(folder / "config.json", R"({"model_type": "t5", "d_model": 16})");
    expectLoadRefused(
        folder, attn::StatusCode::UnsupportedModel,
        "\"t5\" is not supported (supported: gpt2, bert, llama, mistral, qwen2, qwen3)");
}

TEST(ModelLoad, RefusesIntegerTensorAsWeights)
{
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    test::rewriteHeader(folder / "model.safetensors", [](json& h) {
        h["ln_f.weight"]["dtype"] = "I32";  // same size as F32
    });
    expectLoadRefused(folder, attn::StatusCode::UnsupportedDtype, "ln_f.weight");
}

}  // namespace
}  // namespace attn::model
