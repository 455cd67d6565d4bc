// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a training corpus as `attnlab train-model --corpus` reads it. The bytes go
// into a memory file read through the bounded reader (gpt2::readCorpus), then become a
// character vocabulary; an accepted corpus must give every character an id, and the GPT-2
// tokenizer written for the model (vocab.json and merges.txt) must encode the corpus to exactly
// the ids the run trained on.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/train/gpt2_data.h"
#include "core/train/run_limits.h"

namespace {

// The bytes as a file: a memfd, named through /proc, which the reader sees as a regular file.
bool readThroughFile(const std::uint8_t* data, std::size_t size, std::string& out)
{
    const int fd = ::memfd_create("corpus", MFD_CLOEXEC);
    if (fd < 0) return false;
    bool ok = ::write(fd, data, size) == static_cast<ssize_t>(size);
    ok = ok && attn::gpt2::readCorpus("/proc/self/fd/" + std::to_string(fd), out).ok();
    ::close(fd);
    return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 4096) return 0;
    std::string text;
    if (!readThroughFile(data, size, text)) return 0;
    if (text != std::string(reinterpret_cast<const char*>(data), size)) std::abort();
    attn::gpt2::CharVocabulary vocab;
    if (!attn::gpt2::buildCharVocabulary(text, "corpus", vocab).ok()) return 0;
    const std::vector<int> ids = attn::gpt2::encodeCharacters(vocab, text);
    for (const int id : ids)
        if (id < 0 || id >= vocab.characters) std::abort();
    auto tokenizer = attn::tok::Gpt2Tokenizer::fromStrings(attn::gpt2::vocabJson(vocab),
                                                           attn::gpt2::mergesText(vocab));
    const auto* t = std::get_if<attn::tok::Gpt2Tokenizer>(&tokenizer);
    if (t == nullptr) std::abort();  // the run writes a tokenizer that must open
    if (t->encode(text) != ids) std::abort();
    return 0;
}
