// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer files that are not what their names say: a FIFO, a device, a file far too large.
// Each is refused with its path and what it is (or its size and the limit), before it is read.
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tokenize/tokenizer_loader.h"
#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::freshTempDir;
using testing::writeFile;

std::string folderRefusal(const Loaded<Tokenizer>& loaded)
{
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

// The tokenizer files a GPT-2, a BERT and a Llama folder need, every one a small valid file.
void writeValidFiles(const std::filesystem::path& dir)
{
    writeFile(dir / "vocab.json", R"({"a": 0, "b": 1})");
    writeFile(dir / "merges.txt", "#version: 0.2\n");
    writeFile(dir / "vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n");
    writeFile(dir / "tokenizer.json",
              R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}})");
}

struct Case {
    const char* file;
    const char* modelType;
};
const Case kCases[] = {{"vocab.json", "gpt2"},      {"merges.txt", "gpt2"},
                       {"vocab.txt", "bert"},       {"tokenizer_config.json", "bert"},
                       {"tokenizer.json", "llama"}, {"tokenizer_config.json", "llama"}};

TEST(TokenizerFiles, AFifoNamedAsATokenizerFileIsReportedAsAFifoWithItsPath)
{
    for (const Case& c : kCases) {
        const auto dir = freshTempDir("fifo");
        writeValidFiles(dir);
        const auto fifo = dir / c.file;
        std::filesystem::remove(fifo);
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        const std::string message = folderRefusal(loadTokenizer(dir, c.modelType));
        EXPECT_EQ(message.find(fifo.string() + ": "), 0u) << c.file << ": " << message;
        EXPECT_NE(message.find("is a FIFO (named pipe), not a file"), std::string::npos)
            << c.file << ": " << message;
    }
}

TEST(TokenizerFiles, ADeviceLinkedAsVocabTxtIsReportedAsADevice)
{
    const auto dir = freshTempDir("device");
    writeValidFiles(dir);
    std::filesystem::remove(dir / "vocab.txt");
    std::filesystem::create_symlink("/dev/zero", dir / "vocab.txt");
    const std::string message = folderRefusal(loadTokenizer(dir, "bert"));
    EXPECT_EQ(message,
              (dir / "vocab.txt").string() + ": is a character device, not a file; it is not read");
}

TEST(TokenizerFiles, AHugeSparseVocabularyIsRefusedWithItsSizeAndTheLimitWithoutReadingIt)
{
    for (const Case& c : {kCases[0], kCases[1], kCases[2], kCases[4]}) {
        const auto dir = freshTempDir("huge");
        writeValidFiles(dir);
        const auto huge = dir / c.file;
        std::filesystem::resize_file(huge, std::uintmax_t{20} << 30);  // sparse: no disk used
        const auto start = std::chrono::steady_clock::now();
        const std::string message = folderRefusal(loadTokenizer(dir, c.modelType));
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
        EXPECT_EQ(message.find(huge.string() + ": is 20480 MiB; such a file may be at most "), 0u)
            << message;
    }
    // A vocabulary is far smaller than a tokenizer.json: its cap is its own.
    const auto dir = freshTempDir("huge_vocab");
    writeValidFiles(dir);
    std::filesystem::resize_file(dir / "vocab.txt", std::uintmax_t{40} << 20);
    EXPECT_EQ(folderRefusal(loadTokenizer(dir, "bert")),
              (dir / "vocab.txt").string() + ": is 40 MiB; such a file may be at most 16 MiB");
}

TEST(TokenizerFiles, AVocabularyOfTooManyLinesIsRefusedWithTheCountAndTheLimit)
{
    std::string lines = "[UNK]\n[CLS]\n[SEP]\n";
    for (int i = 0; i < 600'000; ++i) lines += "a\n";
    const auto loaded = BertTokenizer::fromVocabText(lines);
    ASSERT_TRUE(std::holds_alternative<attn::Status>(loaded));
    EXPECT_EQ(describe(std::get<attn::Status>(loaded)),
              "vocab.txt: has 600003 lines; a vocabulary may have at most 500000");
    const auto merges = Gpt2Tokenizer::fromStrings(R"({"a": 0})", lines);
    ASSERT_TRUE(std::holds_alternative<attn::Status>(merges));
    EXPECT_EQ(describe(std::get<attn::Status>(merges)),
              "merges.txt: has 600003 lines; a merges file may have at most 500000");
    // A vocab.json is refused at its 500,001st token, before the rest is read into memory.
    std::string vocab = "{";
    for (int i = 0; i <= 500'000; ++i)
        vocab += "\"t" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    vocab.back() = '}';
    const auto tokens = Gpt2Tokenizer::fromStrings(vocab, "");
    ASSERT_TRUE(std::holds_alternative<attn::Status>(tokens));
    EXPECT_EQ(describe(std::get<attn::Status>(tokens)),
              "vocab.json: has more than 500000 tokens; a vocabulary may have at most 500000");
}

}  // namespace
}  // namespace attn::tok
