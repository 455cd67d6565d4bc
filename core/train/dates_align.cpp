// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/dates_align.h"

#include "core/io/bounded_file.h"
#include "core/io/json_read.h"
#include "core/model/model_folder.h"
#include "core/model/seq2seq_edit.h"
#include "core/model/seq2seq_forward.h"
#include "core/model/seq2seq_model.h"
#include "core/tokenize/spm_tokenizer.h"
#include "core/train/dates_run.h"

namespace attn::dates {

namespace {

// The vocabulary of a folder a dates run wrote: its two models and vocab.json's pieces by id.
Status folderVocabulary(const std::string& folder, Vocabulary& out)
{
    Vocabulary v;
    for (auto [name, bytes] :
         {std::pair{"source.spm", &v.sourceSpm}, std::pair{"target.spm", &v.targetSpm}}) {
        const std::string path = folder + "/" + name;
        if (const io::ReadStatus r = io::readBoundedFile(path, tok::kMaxSpmFileBytes, *bytes);
            !r.ok())
            return failure(StatusCode::TokenizerFile, path, "", io::describe(r));
    }
    const std::string path = folder + "/vocab.json";
    std::string text;
    if (const io::ReadStatus r = io::readBoundedFile(path, 64u << 20, text); !r.ok())
        return failure(StatusCode::TokenizerFile, path, "", io::describe(r));
    nlohmann::json j;
    if (const io::JsonProblem p = io::parseJson(text, j); !p.ok() || !j.is_object())
        return failure(StatusCode::TokenizerSyntax, path, "", "is not a JSON object of ids");
    v.pieces.assign(j.size(), "");
    for (const auto& [piece, id] : j.items()) {
        if (!id.is_number_integer() || id.get<long>() < 0 ||
            id.get<long>() >= static_cast<long>(v.pieces.size()))
            return failure(StatusCode::TokenizerSyntax, path, piece,
                           "is not an id of the vocabulary");
        v.pieces[id.get<std::size_t>()] = piece;
    }
    v.eos = 0;
    v.unk = 1;
    v.pad = static_cast<int>(v.pieces.size()) - 1;
    if (v.pieces.size() < 3 || v.pieces[0] != "</s>" || v.pieces.back() != "<pad>")
        return failure(StatusCode::TokenizerSyntax, path, "",
                       "is not the vocabulary of a dates translator (</s> first, <pad> last)");
    out = std::move(v);
    return {};
}

// One pair's cross maps of every decoder layer into the counter.
void countPair(const model::Seq2SeqResult& r, const EncodedPair& pair, AlignmentCounter& counter)
{
    std::vector<float> maps;
    for (std::size_t l = 0; l < r.cross.size(); ++l) {
        maps.clear();
        for (const model::FloatMatrix& head : r.cross[l])
            for (long t = 0; t < head.rows(); ++t)
                for (long s = 0; s < head.cols(); ++s) maps.push_back(head(t, s));
        const long T = r.cross[l].empty() ? 0 : r.cross[l][0].rows();
        const long S = r.cross[l].empty() ? 0 : r.cross[l][0].cols();
        counter.add(static_cast<long>(l), pair, maps.data(), T, S);
    }
}

}  // namespace

Status alignFolder(const std::string& folder, long count, FolderAlignment& out,
                   const std::vector<model::HeadEdit>& edits)
{
    if (count < 1 || count > kMaxAlignCount) {
        Status s = failure(StatusCode::TooLarge, "", "count",
                           std::to_string(count) + " dates: from 1 to " +
                               std::to_string(kMaxAlignCount) + " are held out");
        s.value = count;
        s.limit = kMaxAlignCount;
        return s;
    }
    model::FolderRecord record;
    if (Status s = model::readFolderRecord(folder, record); !s.ok()) return s;
    if (record.task != "dates")
        return failure(StatusCode::UnsupportedModel, folder + "/training.json", "task",
                       "alignment is measured against the fields of the dates task; this folder "
                       "is no dates translator, so its tokens have no field spans");
    Vocabulary v;
    if (Status s = folderVocabulary(folder, v); !s.ok()) return s;
    PairEncoder encoder;
    if (Status s = PairEncoder::make(v, encoder); !s.ok()) return s;
    model::Seq2SeqModel m;
    if (Status s = model::Seq2SeqModel::load(folder, m); !s.ok()) return s;
    const std::vector<EncodedPair> pairs = heldOutMixed(encoder, kMeasureSeed, count);
    AlignmentCounter counter(m.config().decoderLayers, m.config().heads);
    const model::Seq2SeqOptions options = model::withSeq2SeqEdits({}, edits);
    long right = 0;
    for (const EncodedPair& p : pairs) {
        std::vector<int> input{m.config().decoderStartTokenId};
        input.insert(input.end(), p.labels.begin(), p.labels.end() - 1);
        if (Status s = model::checkSeq2SeqEdits(m, static_cast<long>(p.source.size()),
                                                static_cast<long>(input.size()), edits);
            !s.ok())
            return s;
        model::Seq2SeqResult r;
        if (Status s = model::forwardSeq2Seq(m, p.source, input, options, r); !s.ok()) return s;
        countPair(r, p, counter);
        std::vector<int> written;
        if (Status s = model::translateGreedy(m, p.source, kMaxLabels, options, written, r);
            !s.ok())
            return s;
        right += written == p.labels ? 1 : 0;
    }
    out.alignment = summarise(counter.scores());
    out.count = static_cast<long>(pairs.size());
    out.accuracy =
        pairs.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(pairs.size());
    return {};
}

}  // namespace attn::dates
