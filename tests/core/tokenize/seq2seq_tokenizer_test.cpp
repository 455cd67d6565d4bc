// SPDX-License-Identifier: GPL-3.0-or-later
// The encoder-decoders' tokenizers against their peers' ids: Marian (source.spm and target.spm
// through libsentencepiece, ids from vocab.json, </s> appended) and T5 (spiece.model's own ids,
// </s>) against Google's python3-sentencepiece with transformers' rules; BART (vocab.json +
// merges.txt, <s> ... </s>) against Hugging Face's JavaScript tokenizers
// (tests/reference/make_seq2seq_tokenizer_{fixtures.py,cases.mjs}). And what a folder lacking a
// file, or holding a FIFO, a device, a symlink or a huge or malformed model, gets instead.
#include "core/tokenize/seq2seq_tokenizer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seq2seq_test_support.h"

namespace attn::tok {
namespace {

namespace fs = std::filesystem;
using testing::freshTempDir;
using testing::loaded;
using testing::readJsonFixture;
using testing::seq2seqDir;
using testing::tokenizerFixtureDir;
using testing::writeFile;

TEST(Seq2SeqTokenizers, MarianAndT5GiveSentencePiecesIdsAsTransformersDoes)
{
    const auto cases = readJsonFixture("seq2seq/cases.json");
    const Seq2SeqTokenizers marian = loaded("marian", "marian");
    const Seq2SeqTokenizers t5 = loaded("t5", "t5");
    EXPECT_EQ(testing::expectFixtureIds(cases, marian, t5), 15);
    EXPECT_EQ(marian.source.vocabSize(), cases["marian_vocab_size"].get<std::size_t>());
    // T5Tokenizer counts its 100 <extra_id_K> after the pieces, the last id being extra_id_0.
    const std::size_t t5Ids = cases["t5_pieces"].get<std::size_t>() + kT5ExtraIds;
    EXPECT_EQ(t5.source.vocabSize(), t5Ids);
    EXPECT_EQ(t5.source.token(static_cast<int>(t5Ids) - 1).piece, "<extra_id_0>");
    EXPECT_EQ(t5.source.modelType(), "t5");
    EXPECT_EQ(marian.target.modelType(), "marian");
}

TEST(Seq2SeqTokenizers, MarianNamesTheCharactersItReadsAsUnknown)
{
    const Seq2SeqTokenizers marian = loaded("marian", "marian");
    // Neither side's model has the emoji: it becomes <unk> (id 1) and is reported. (A Chinese
    // character the English source model lacks would take its id from the target's pieces in
    // the shared vocabulary, as MarianTokenizer looks every piece up there.)
    const std::string text = "hello \xF0\x9F\x99\x82";
    const Encoded e = marian.source.encodeReported(text);
    ASSERT_FALSE(e.dropped.empty());
    EXPECT_EQ(e.dropped.front().text, "\xF0\x9F\x99\x82");
    EXPECT_EQ(e.dropped.front().offset, 6u);
    EXPECT_EQ(e.tokens.back().piece, "</s>");
    EXPECT_EQ(e.tokens.back().label, "</s>");
    // "▁hello" is shown with the house's visible space.
    EXPECT_EQ(marian.source.token(e.tokens.front().id).text.front(), ' ');
}

TEST(Seq2SeqTokenizers, BartWrapsByteLevelBpeInItsStartAndEndTokens)
{
    const auto cases = readJsonFixture("seq2seq/bart_cases.json");
    const Seq2SeqTokenizers bart = loaded("bart", "bart");
    int checked = 0;
    for (const auto& c : cases["cases"]) {
        const std::string text = c["text"];
        EXPECT_EQ(bart.source.encode(text), c["ids"].get<std::vector<int>>()) << text;
        ++checked;
    }
    EXPECT_EQ(checked, 22);
    EXPECT_EQ(bart.source.vocabSize(), cases["vocab_size"].get<std::size_t>());
    EXPECT_EQ(bart.source.modelType(), "bart");
    // loadTokenizer gives the source side, the way the decoder-only code calls it.
    auto single = loadTokenizer(seq2seqDir("bart"), "bart");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(single));
    EXPECT_EQ(std::get<Tokenizer>(single).encode("Hello"), bart.source.encode("Hello"));
}

TEST(Seq2SeqTokenizers, AMissingFileIsNamed)
{
    const fs::path dir = freshTempDir("seq2seq_missing");
    fs::copy(seq2seqDir("marian") / "source.spm", dir / "source.spm");
    fs::copy(seq2seqDir("marian") / "vocab.json", dir / "vocab.json");
    auto t = loadSeq2SeqTokenizers(dir, "marian");
    ASSERT_TRUE(std::holds_alternative<Status>(t));
    EXPECT_EQ(std::get<Status>(t).file, (dir / "target.spm").string());
    EXPECT_NE(describe(std::get<Status>(t)).find("source.spm, target.spm and vocab.json"),
              std::string::npos);
    t = loadSeq2SeqTokenizers(dir, "t5");
    ASSERT_TRUE(std::holds_alternative<Status>(t));
    EXPECT_EQ(std::get<Status>(t).file, (dir / "spiece.model").string());
    t = loadSeq2SeqTokenizers(dir, "bart");
    ASSERT_TRUE(std::holds_alternative<Status>(t));
    EXPECT_EQ(std::get<Status>(t).file, (dir / "merges.txt").string());
    fs::remove_all(dir);
}

// What replaces spiece.model: never read past its cap, never blocked on, never crashing.
TEST(Seq2SeqTokenizers, AFifoADeviceASymlinkAHugeOrMalformedModelIsRefused)
{
    const fs::path dir = freshTempDir("seq2seq_bad");
    const fs::path model = dir / "spiece.model";
    const auto refused = [&](const std::string& why, const std::string& says) {
        auto t = loadSeq2SeqTokenizers(dir, "t5");
        ASSERT_TRUE(std::holds_alternative<Status>(t)) << why;
        const std::string text = describe(std::get<Status>(t));
        EXPECT_NE(text.find(model.string()), std::string::npos) << why << ": " << text;
        EXPECT_NE(text.find(says), std::string::npos) << why << ": " << text;
    };
    ASSERT_EQ(::mkfifo(model.c_str(), 0600), 0);
    refused("a FIFO", "spiece.model");
    fs::remove(model);
    fs::create_symlink("/dev/zero", model);
    refused("a device behind a symlink", "spiece.model");
    fs::remove(model);
    {
        const int fd = ::open(model.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(kMaxSpmFileBytes) + 1), 0);
        ::close(fd);
    }
    refused("a sparse file past the cap", "spiece.model");
    writeFile(model, std::string("\x0a\x05garbage and more bytes that are not a model", 44));
    refused("random bytes", "not a SentencePiece model");
    // A well-formed message whose model has a piece of no characters: the library throws while
    // it builds its trie (found by fuzz/fuzz_spm_load.cpp).
    fs::remove(model);
    fs::copy(seq2seqDir("bad") / "empty_piece.spm", model);
    refused("a piece of no characters", "not a SentencePiece model");
    // A symlink to a good model is followed, as any path.
    fs::remove(model);
    fs::create_symlink(seq2seqDir("t5") / "spiece.model", model);
    EXPECT_TRUE(std::holds_alternative<Seq2SeqTokenizers>(loadSeq2SeqTokenizers(dir, "t5")));
    fs::remove_all(dir);
}

TEST(Seq2SeqTokenizers, ATokenizerMustFitTheModelsVocabulary)
{
    // The Marian fixture has 815 ids: a model of 700 rows lacks some, one of 4,000 has far more
    // rows than tokens (the wrong vocabulary).
    for (const long rows : {700L, 4000L}) {
        auto t = loadSeq2SeqTokenizers(seq2seqDir("marian"), "marian", rows);
        ASSERT_TRUE(std::holds_alternative<Status>(t)) << rows;
        EXPECT_EQ(std::get<Status>(t).code, StatusCode::TokenizerMismatch);
        EXPECT_EQ(std::get<Status>(t).limit, rows);
    }
    EXPECT_TRUE(std::holds_alternative<Seq2SeqTokenizers>(
        loadSeq2SeqTokenizers(seq2seqDir("marian"), "marian", 815)));
}

}  // namespace
}  // namespace attn::tok
