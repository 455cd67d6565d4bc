// SPDX-License-Identifier: GPL-3.0-or-later
// The one status of the core: each kind of failure (the attention core, a model run, an edit,
// a tokenizer file) carries its code and the facts that name it, kept from 0; its English
// message counts them from 1.
#include "core/status.h"

#include <gtest/gtest.h>
#include <optional>
#include <set>
#include <string>

#include "core/attention.h"
#include "core/random_init.h"
#include "core/tokenize/loaded.h"
#include "core/tokenize/tokenizer_loader.h"

namespace attn {
namespace {

// Every code from the first to kLastStatusCode: a code added without a name or a message fails
// here, and so does one added after kLastStatusCode without moving it.
TEST(Status, EveryCodeHasItsOwnNameAndAnEnglishMessage)
{
    EXPECT_STREQ(codeName(static_cast<StatusCode>(static_cast<int>(kLastStatusCode) + 1)),
                 "unknown")
        << "a code after kLastStatusCode: move kLastStatusCode to the new last code";
    std::set<std::string> names;
    for (int c = 0; c <= static_cast<int>(kLastStatusCode); ++c) {
        const auto code = static_cast<StatusCode>(c);
        const std::string name = codeName(code);
        EXPECT_NE(name, "unknown") << c;
        EXPECT_TRUE(names.insert(name).second) << name;
        Status s;
        s.code = code;
        EXPECT_FALSE(describe(s).empty()) << name;
    }
}

TEST(Status, AnAttentionFailureNamesItsHeadAndMatrixFromOne)
{
    AttentionInput in = randomInput(RandomSpec{4, 5, 3, 3, 3, 2, 3, Mode::Self, 4});
    in.heads[1].W_K.resize(3, 2);
    const Status s = validate(in, Limits{});
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.head, 1);
    EXPECT_EQ(s.field, "W_K");
    EXPECT_EQ(s.row, 3);
    EXPECT_EQ(s.col, 2);
    EXPECT_EQ(s.expectedRows, 3);
    EXPECT_EQ(s.expectedCols, 3);
    EXPECT_EQ(s.layer, -1);
    EXPECT_EQ(describe(s), "head 2, W_K: expected 3 x 3, got 3 x 2");
}

TEST(Status, AnEditFailureNamesTheEditFromOne)
{
    AttentionInput in = randomInput(RandomSpec{4, 5, 3, 3, 3, 2, 3, Mode::Self, 4});
    in.edits.push_back({Role::Key, 0, 1, 2.0, {}});
    in.edits.push_back({Role::Query, 1, 2, 1e200, {}});
    const Status s = validate(in, Limits{});
    EXPECT_EQ(s.code, StatusCode::EditScaleTooLarge);
    EXPECT_EQ(s.edit, 1);
    EXPECT_EQ(s.field, "scale");
    EXPECT_EQ(describe(s).rfind("edit 2, scale: ", 0), 0u) << describe(s);
    // A finite scale is never printed as "inf".
    EXPECT_EQ(describe(s).find("inf"), std::string::npos) << describe(s);
}

TEST(Status, AModelFailureKeepsItsFileFieldAndSentence)
{
    Status s = failure(StatusCode::MissingTensor, "m.safetensors", "wte.weight", "missing");
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.file, "m.safetensors");
    EXPECT_EQ(s.field, "wte.weight");
    EXPECT_EQ(s.detail, "missing");
    EXPECT_EQ(describe(s), "m.safetensors: wte.weight: missing");
    // An edit's field names its part; the message names the edit, from 1, and its subject.
    s = failure(StatusCode::BadLayer, "", "layer", "the model has 2 layers");
    s.edit = 0;
    s.subject = "key layer 3 head 1 index 1 x2";
    EXPECT_EQ(describe(s), "edit 1 (key layer 3 head 1 index 1 x2): the model has 2 layers");
}

TEST(Status, ANonFiniteModelValueNamesLayerHeadStageAndCauseFromOne)
{
    Status s;
    s.code = StatusCode::NonFinite;
    s.layer = 2;
    s.head = 0;
    s.stage = "the scores";
    EXPECT_EQ(whereInModel(s), "layer 3 head 1, the scores");
    EXPECT_EQ(describe(s), "layer 3 head 1, the scores: a value is not a finite number");
    s.cause = Cause::Weights;
    s.field = "h.2.attn.c_attn.weight";
    EXPECT_NE(describe(s).find("the weights caused it: h.2.attn.c_attn.weight"), std::string::npos);
    s.cause = Cause::Text;
    EXPECT_NE(describe(s).find("the text caused it"), std::string::npos);
    s.cause = Cause::Edit;
    s.edit = 1;
    s.subject = "query layer 3 head 1 index 2 x1e+30";
    EXPECT_NE(describe(s).find("the edit caused it (the run without edits is finite): edit 2 "
                               "(query layer 3 head 1 index 2 x1e+30)"),
              std::string::npos)
        << describe(s);
}

TEST(Status, ATokenizerFailureSaysWhetherTheFileOrItsContentIsAtFault)
{
    std::string bytes;
    const std::optional<Status> missing = tok::readWholeFile("/nonexistent/vocab.json", bytes);
    ASSERT_TRUE(missing.has_value());
    EXPECT_EQ(missing->code, StatusCode::TokenizerFile);
    EXPECT_EQ(missing->file, "/nonexistent/vocab.json");
    EXPECT_EQ(missing->detail, "file not found");
    EXPECT_EQ(describe(*missing), "/nonexistent/vocab.json: file not found");
    const Status bad = tok::tokenizerError("merges.txt", "line 7: expected two tokens");
    EXPECT_EQ(bad.code, StatusCode::TokenizerSyntax);
    EXPECT_EQ(describe(bad), "merges.txt: line 7: expected two tokens");
    const tok::Loaded<tok::Tokenizer> none = tok::loadTokenizer("/nonexistent", "gpt2");
    ASSERT_TRUE(std::holds_alternative<Status>(none));
    EXPECT_EQ(std::get<Status>(none).code, StatusCode::TokenizerFile);
}

}  // namespace
}  // namespace attn
