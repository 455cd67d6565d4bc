#pragma once
// Runs the real attnlab binary (ATTNLAB_BINARY) headless for command-line tests.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace attnlab::test {

struct CliRun {
    int code = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out;
    QString err;
};

// Without a display: the commands choose the offscreen platform themselves.
CliRun runAttnlab(const QStringList& args);

}  // namespace attnlab::test
