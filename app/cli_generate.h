// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `attnlab generate` shares between its two kinds of model: the request read from the
// command line, and the part of the JSON that says what was written and how (cli_generate.cpp
// for causal models, cli_generate_seq2seq.cpp for encoder-decoders).

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include "app/cli.h"
#include "core/model/generate.h"
#include "core/model/generation_config.h"
#include "core/tokenize/tokenizer_loader.h"

namespace attnlab::cli {

// What was asked, read and checked before anything is opened.
struct GenerateRequest {
    QString text;
    QString out;
    bool image = false;
    attn::model::GenerateOptions options;
    QStringList editTexts, ablationTexts;
    int layer = 0, head = 0;  // from 0; checked against the model once it is open
    std::size_t limit = 0;    // the JSON's most bytes (--max-output, else kMaxNumbersBytes)
};

// Reads the checkpoint's generation settings into `gs` and the request (its end ids and bad
// words), and checks that the output is none of the model's files; false with `code` set when
// it cannot.
bool readSettings(const QString& folder, GenerateRequest& r, attn::model::GenerationSettings& gs,
                  int& code);

// A usage error of `attnlab generate`.
int refuseGenerate(const QString& message);

// A refused generation: an edit named by the option that asked for it, else the status.
int refuseGeneration(const GenerateRequest& r, const attn::Status& s);

// {"ids", "tokens", "display", "text", "stopped", "sampling", "generation_config", "steps"}:
// the written tokens (`display`: their labels), why writing stopped (eos, max_new_tokens or
// positions), the settings, and each step's own probabilities.
nlohmann::ordered_json writtenJson(const attn::tok::Tokenizer& t,
                                   const std::vector<attn::model::GeneratedStep>& steps,
                                   bool endedAtEos, const nlohmann::ordered_json& display,
                                   const GenerateRequest& r,
                                   const attn::model::GenerationSettings& gs);

// An encoder-decoder in `folder` translates r.text (its source), from decoder_start_token_id.
int runGenerateSeq2Seq(const QString& folder, GenerateRequest& r);

}  // namespace attnlab::cli
