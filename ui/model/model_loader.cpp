// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_loader.h"

#include "ui/document/away.h"

namespace attnlab {

namespace {

struct Loaded {
    std::shared_ptr<const LoadedModel> model;
    QString error;
};

}  // namespace

std::shared_ptr<const LoadedModel> loadModelFolderAway(const QString& folder, QString& error)
{
    Loaded out = runAway([folder] {
        Loaded r;
        r.model = loadModelFolder(folder, r.error);
        return r;
    });
    error = out.error;
    return out.model;
}

}  // namespace attnlab
