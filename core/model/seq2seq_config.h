// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of an encoder-decoder's config.json that its forward pass needs: BART (and
// distilBART), Marian (Helsinki-NLP opus-mt) and T5 (T5, T5 v1.1, Flan-T5), read as Hugging
// Face's BartConfig, MarianConfig and T5Config read them. A value that would make their
// forward pass differ from ours is refused with its field named.
//
// What differs between the three (seq2seq_forward.h has the whole pass):
//   bart    learned positions (offset 2), layernorm_embedding; post-LN LayerNorm; scores
//           / sqrt(d_h); gelu; logits + final_logits_bias
//   marian  sinusoidal positions, computed; embeddings x sqrt(d); post-LN LayerNorm; scores
//           / sqrt(d_h); swish (SiLU); logits + final_logits_bias
//   t5      relative position buckets added to the scores, not scaled; pre-norm RMSNorm; relu or
//           gated FFN; tied logits from the output x d^-0.5

#include <string>

#include "core/model/config.h"
#include "core/status.h"

namespace attn::model {

enum class Seq2SeqFamily { Bart, Marian, T5 };

struct Seq2SeqConfig {
    Seq2SeqFamily family = Seq2SeqFamily::Bart;
    std::string modelType;  // as written: "bart", "marian", "t5"
    long encoderLayers = 0;
    long decoderLayers = 0;
    long heads = 0;    // every attention of both stacks has this many heads
    long width = 0;    // d_model
    long headDim = 0;  // d_model / heads; T5's d_kv
    long encoderFfn = 0;
    long decoderFfn = 0;
    long vocab = 0;
    // The longest sequence either stack reads: max_position_embeddings (BART, Marian), T5's
    // n_positions (512 when absent: its relative positions have no table to run out of, but the
    // models were trained on at most 512 tokens).
    long positions = 0;
    float normEps = 1e-5f;  // BART and Marian: 1e-5, as their code fixes it; T5 layer_norm_epsilon
    Activation activation = Activation::GeluErf;
    bool gatedFfn = false;        // T5 "gated-*": act(wi_0 x) * (wi_1 x)
    bool scaleEmbedding = false;  // embeddings times sqrt(d_model)
    bool tieWordEmbeddings = true;
    // T5's relative position buckets (its only positions).
    long relativeBuckets = 0;
    long relativeMaxDistance = 0;
    int padTokenId = 0;
    int eosTokenId = 0;
    int decoderStartTokenId = 0;

    [[nodiscard]] bool isT5() const { return family == Seq2SeqFamily::T5; }
    [[nodiscard]] long innerWidth() const { return heads * headDim; }
};

// Whether `modelType` is an encoder-decoder this code runs ("bart", "marian", "t5").
bool isSeq2SeqType(const std::string& modelType);
// "bart, marian, t5", for messages.
const char* supportedSeq2SeqTypes();

// Parses config.json text; `file` names it in messages.
attn::Status parseSeq2SeqConfig(const std::string& text, const std::string& file,
                                Seq2SeqConfig& out);
// Reads and parses the file at `path` (bounded: a FIFO, a device or a huge file is refused).
attn::Status readSeq2SeqConfig(const std::string& path, Seq2SeqConfig& out);
// The model_type a config.json names ("" when it names none or cannot be read): which loader
// a folder needs.
std::string configModelType(const std::string& path);

}  // namespace attn::model
