// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a check as the user nobody (uid and gid 65534) in a forked child, so that file
// permissions apply as they do to an ordinary user: root may write any file, and a test of
// "this user may not write that file" must not run as root. Returns the child's exit status
// (the check's return value), or -1 if it could not be run.

#include <functional>
#include <sys/wait.h>
#include <unistd.h>

namespace attn::test {

inline constexpr int kNobody = 65534;

inline int runAsNobody(const std::function<int()>& check)
{
    const pid_t pid = ::fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) ::_exit(120);
        ::_exit(check());
    }
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

}  // namespace attn::test
