// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/head_session.h"

#include <QCoreApplication>
#include <QDir>

#include "core/model/head_slice.h"
#include "core/random_init.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class HeadSessionTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::HeadSession)
};

// Width of the additive scorer drawn for a real head, so that "additive" can be tried on it.
constexpr int kAdditiveWidth = 16;

}  // namespace

void drawAdditive(Session& session)
{
    session.dModel = static_cast<int>(session.input.modelDim());
    session.dAdditive = kAdditiveWidth;
    session.seed = 1;
    attn::Rng rng(session.seed);
    const long dk = session.input.keyDim();
    const double std = 1.0 / std::sqrt(static_cast<double>(dk));
    attn::AdditiveParams& a = session.input.heads.front().additive;
    a.W_a = attn::randomNormal(kAdditiveWidth, dk, rng, std);
    a.U_a = attn::randomNormal(kAdditiveWidth, dk, rng, std);
    a.v = attn::randomNormal(kAdditiveWidth, 1, rng, 1.0).col(0);
}

bool headSession(const HeadSource& source, int layer, int head, Session& out, QString& error)
{
    const attn::model::Model& model = *source.model;
    attn::model::HeadSlice slice;
    if (const attn::Status s = attn::model::sliceHead(model, *source.run, layer, head, slice);
        !s.ok()) {
        error = HeadSessionTr::tr("Cannot open that head: %1").arg(statusMessage(s));
        return false;
    }
    Session session;
    session.input = attn::model::headInput(model, slice);
    session.targetTokens = source.labels;
    drawAdditive(session);
    ModelProvenance p;
    p.folder = QDir::cleanPath(QDir(source.folder).absolutePath());
    p.sha256 = source.sha256;
    p.modelType = QString::fromStdString(model.config().modelType);
    p.layer = layer;
    p.head = head;
    p.text = source.text;
    session.provenance = std::move(p);
    out = std::move(session);
    return true;
}

QString headTitle(const ModelProvenance& p)
{
    return HeadSessionTr::tr("Layer %1, head %2 of %3")
        .arg(p.layer + 1)
        .arg(p.head + 1)
        .arg(p.modelType);
}

}  // namespace attnlab
