// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The workbench joined to a real model: when the workbench's session is a head of a model
// (Session::provenance) and that model is attached here, every published change of the session
// is carried into that head inside the model, and the network runs again from that layer on
// (attn::model::runWithHead). The result is a ModelSnapshot beside the unedited run, read by the
// same predictions and change panels as the model window's.
//
// Data flows one way: the Document publishes {session, result}; this link reads the workbench
// head's weights P and output P V from that result (it never computes attention itself) and
// publishes its own snapshot. Its runs are a SnapshotDocument whose policy for a change while one
// runs is ChangePolicy::Latest: the run in flight is finished and shown, and only the latest
// session waits behind it. A session whose tokens, mode or head width no longer
// fit the model is shown as not matching, with the reason, until it fits again (undo).

#include <memory>

#include <QObject>

#include "core/model/head_slice.h"
#include "ui/document/async_job.h"
#include "ui/document/snapshot_document.h"
#include "ui/model/run_source.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/readers/session.h"

namespace attnlab {

class Document;
struct ModelProvenance;

class HeadLink : public RunSource {
    Q_OBJECT
public:
    explicit HeadLink(Document* workbench, QObject* parent = nullptr);
    ~HeadLink() override;

    // Replaces the workbench's session by head `head` of layer `layer` (from 0) of `run` (a run
    // of `loaded`; its unedited result is used) as one undo step, and attaches the model. The
    // head is taken on a worker (the session records the checkpoint's SHA-256); the workbench
    // changes when it is done, or errorOccurred() says why not. False with a translated `error`
    // when there is nothing to take or another head is still being taken.
    bool openHead(std::shared_ptr<const LoadedModel> loaded,
                  std::shared_ptr<const ModelSnapshot> run, int layer, int head, QString& error);
    // Attaches the model that the open session's provenance names: opens its folder, checks the
    // SHA-256 of model.safetensors, runs the provenance's text and checks that its tokens are
    // the session's. On a worker; attachmentChanged() or errorOccurred() tells the outcome.
    void attachFromProvenance();
    void detach();

    // A model is attached and the open session came from it.
    [[nodiscard]] bool active() const;
    // Attaching, or taking a head (openHead), is in progress.
    [[nodiscard]] bool attaching() const { return attach_.running() || take_.running(); }
    // Why the last attempt to attach failed (translated); empty after a success.
    [[nodiscard]] QString attachError() const { return attachError_; }
    // Why the workbench's session cannot be carried into the model now (translated); empty
    // when it can, or when the link is not active.
    [[nodiscard]] QString mismatch() const { return mismatch_; }
    [[nodiscard]] const LoadedModel* loaded() const { return loaded_.get(); }
    // The unedited run the link compares with.
    [[nodiscard]] std::shared_ptr<const ModelSnapshot> base() const { return base_; }

    [[nodiscard]] std::shared_ptr<const ModelSnapshot> snapshot() const override;
    [[nodiscard]] bool hasModel() const override { return active(); }
    [[nodiscard]] QString modelType() const override;

    // No run going or waiting: the snapshot belongs to the workbench's current session.
    [[nodiscard]] bool idle() const { return !runs_.computing() && !attaching(); }
    // Waits until idle (tests and benchmarks).
    void flush();
    // Runs completed since the link was made (benchmarks).
    [[nodiscard]] int completedRuns() const { return completed_; }

Q_SIGNALS:
    void attachmentChanged();
    // openHead() replaced the workbench's session by the head: what was open before (a file,
    // a lesson) is no longer what the workbench holds.
    void headOpened();

private:
    // What attaching a model from the session's provenance came to.
    struct Outcome {
        std::shared_ptr<const LoadedModel> loaded;
        std::shared_ptr<const ModelSnapshot> base;
        QString error;
    };
    struct Taken {
        std::shared_ptr<const LoadedModel> loaded;  // set when the head was taken
        std::shared_ptr<const ModelSnapshot> base;
        Session session;
        QString error;
    };
    // The workbench head carried into the model: its weights P and output P V.
    using Runs = SnapshotDocument<attn::model::HeadOverride, std::shared_ptr<const ModelSnapshot>>;
    void sessionChanged();
    void finishTake(Taken out);
    void startRun();
    [[nodiscard]] Runs::Work prepare(const attn::model::HeadOverride& head) const;
    void finishAttach(Outcome out);
    void adopt(std::shared_ptr<const LoadedModel> loaded, std::shared_ptr<const ModelSnapshot> base,
               const ModelProvenance& provenance);
    [[nodiscard]] QString checkSession() const;

    Document* workbench_;
    std::shared_ptr<const LoadedModel> loaded_;
    std::shared_ptr<const ModelSnapshot> base_;  // its `result` is the unedited run
    std::unique_ptr<ModelProvenance> attachedTo_;
    QString mismatch_;
    QString attachError_;
    int completed_ = 0;
    Runs runs_;
    AsyncJob<Outcome> attach_;
    AsyncJob<Taken> take_;
};

}  // namespace attnlab
