// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `attnlab model` on an encoder-decoder (bart, marian, t5): the source text, a target typed with
// --target or the model's own greedy translation, every encoder, decoder and cross map, and the
// predictions per target position; or one map as a figure (--kind encoder|decoder|cross).

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace attnlab::cli {

inline const QCommandLineOption kTargetOption(QStringLiteral("target"), QString(),
                                              QStringLiteral("text"));
inline const QCommandLineOption kKindOption(QStringLiteral("kind"), QString(),
                                            QStringLiteral("kind"));

// Runs the encoder-decoder in `folder` (resolved) with the options `parser` read (runModel's).
int runSeq2Seq(const QCommandLineParser& parser, const QString& folder);

// Refuses, as a usage error, what only an encoder-decoder has (--target, --kind, edits of
// encoder or cross heads) on the decoder-only or encoder-only model of type `modelType` in
// `folder`; Success when nothing is asked that it lacks.
int refuseSeq2SeqOptions(const QCommandLineParser& parser, const QString& folder,
                         const QString& modelType);

}  // namespace attnlab::cli
