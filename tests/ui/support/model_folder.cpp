// SPDX-License-Identifier: GPL-3.0-or-later
// See model_folder.h.
#include "support/model_folder.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "../core/model/model_files.h"
#include "core/model/safetensors.h"
#include "core/tokenize/gpt2_tokenizer.h"

namespace attnlab::test {

namespace {
const QString kModels = QStringLiteral(ATTNLAB_SOURCE_DIR "/tests/reference/fixtures/models/");

// A byte-level BPE vocabulary needs a symbol for each of the 256 bytes: the tiny GPT-2 fixture
// (64 tokens) gets a word embedding of `vocab` rows, its first 64 the fixture's own.
void widenVocabulary(const QString& folder, long vocab)
{
    namespace mt = attn::model::test;
    const std::string path = (folder + QStringLiteral("/model.safetensors")).toStdString();
    attn::model::SafetensorsFile file;
    ASSERT_TRUE(attn::model::SafetensorsFile::open(path, file).ok());
    mt::json header = mt::json::object();
    std::string data;
    for (const attn::model::TensorInfo& t : file.tensors()) {
        ASSERT_NE(t.data, nullptr) << t.name;
        std::vector<float> values(t.data, t.data + t.elementCount());
        std::vector<std::int64_t> shape = t.shape;
        if (t.name.ends_with("wte.weight")) {
            for (long k = values.size(); k < vocab * shape[1]; ++k)
                values.push_back(0.01f * static_cast<float>(k % 17 - 8));
            shape[0] = vocab;
        }
        const std::size_t begin = data.size();
        data.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
        header[t.name] = {
            {"dtype", "F32"}, {"shape", shape}, {"data_offsets", {begin, data.size()}}};
    }
    const std::string bytes = mt::safetensorsBytes(header.dump(), data);
    file = attn::model::SafetensorsFile();  // unmapped before it is replaced
    mt::writeBytes(path, bytes);
    const QString configPath = folder + QStringLiteral("/config.json");
    QFile config(configPath);
    ASSERT_TRUE(config.open(QIODevice::ReadOnly));
    QJsonObject c = QJsonDocument::fromJson(config.readAll()).object();
    config.close();
    c[QStringLiteral("vocab_size")] = static_cast<int>(vocab);
    writeFile(configPath, QJsonDocument(c).toJson());
}

}  // namespace

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    ASSERT_EQ(f.write(bytes), bytes.size());
}

int writeByteTokenizer(const QString& folder)
{
    QJsonObject vocab;
    int id = 0;
    for (int b = 0; b < 256; ++b) {
        const char32_t symbol =
            attn::tok::Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b));
        vocab[QString::fromUcs4(&symbol, 1)] = id++;
    }
    vocab[QStringLiteral("th")] = id++;
    writeFile(folder + QStringLiteral("/vocab.json"), QJsonDocument(vocab).toJson());
    writeFile(folder + QStringLiteral("/merges.txt"), "#version: 0.2\nt h\n");
    return id;
}

QString modelFolder(const QTemporaryDir& dir, const char* fixture, bool gpt2)
{
    const QString folder = dir.filePath(QString::fromLatin1(fixture));
    QDir().mkpath(folder);
    for (const char* file : {"config.json", "model.safetensors"})
        QFile::copy(kModels + QLatin1String(fixture) + QLatin1Char('/') + QLatin1String(file),
                    folder + QLatin1Char('/') + QLatin1String(file));
    if (gpt2) {
        widenVocabulary(folder, writeByteTokenizer(folder));
    } else {
        writeFile(folder + QStringLiteral("/vocab.txt"),
                  "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nanimal\nit\nwas\ntoo\ntired\n.\n");
    }
    return folder;
}

}  // namespace attnlab::test
