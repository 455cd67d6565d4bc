// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs the real attnlab binary (ATTNLAB_BINARY) headless for command-line tests.

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace attnlab::test {

struct CliRun {
    int code = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out;
    QString err;
};

// The JSON object in the file at `path` (a test failure, and an empty object, if it cannot be
// read).
QJsonObject readJsonFile(const QString& path);

// Without a display: the commands choose the offscreen platform themselves.
CliRun runAttnlab(const QStringList& args);
// The same through `sh -c 'ulimit -v KIB; exec attnlab ARGS'`: the program's address space is
// limited to `kib` KiB (what it allocates beyond fails). Its fontconfig cache is a private one
// (what it finds with its fonts unmappable must not become the system's cache).
CliRun runAttnlabWithAddressLimit(qint64 kib, const QStringList& args);
// The same through `sh -c SCRIPT`, with $0 the attnlab binary: for arguments that are not
// text (bytes that are not UTF-8, made with printf), which QProcess cannot pass.
CliRun runAttnlabScript(const QString& script);
// What the address-limit tests let a command allocate beyond its baseline (KiB): far less
// than what the refused inputs would need.
inline constexpr qint64 kAddressBudgetKiB = 100 * 1024;

// False under AddressSanitizer, whose shadow memory reserves terabytes of address space: the
// address-limit tests skip there.
constexpr bool addressLimitWorks()
{
#if defined(__SANITIZE_ADDRESS__)
    return false;
#else
    return true;
#endif
}

// The least address space (KiB, to 4 MiB) with which `args` still exits 0: the program's own
// baseline (Qt, fonts, threads) for that command, measured by bisection up to 8 GiB.
qint64 attnlabAddressBaseline(const QStringList& args);

}  // namespace attnlab::test
