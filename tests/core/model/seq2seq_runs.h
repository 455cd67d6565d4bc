// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An encoder-decoder fixture opened and run once on the source and target its expected.json
// names: what the edit and slice tests start from.
#include <gtest/gtest.h>
#include <vector>

#include "core/model/seq2seq_forward.h"
#include "model_files.h"

namespace attn::model::test {

struct Seq2SeqRuns {
    Seq2SeqModel model;
    std::vector<int> source, target;
    Seq2SeqResult before;
};

inline void prepareSeq2Seq(const char* name, Seq2SeqRuns& r)
{
    ASSERT_TRUE(Seq2SeqModel::load(seq2seqFixture(name).string(), r.model).ok());
    const json want = json::parse(readBytes(seq2seqFixture(name) / "expected.json"));
    r.source = want["source_ids"].get<std::vector<int>>();
    r.target = want["target_ids"].get<std::vector<int>>();
    ASSERT_TRUE(forwardSeq2Seq(r.model, r.source, r.target, Seq2SeqOptions(), r.before).ok());
}

}  // namespace attn::model::test
