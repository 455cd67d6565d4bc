// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a piece of a test in a child process whose address space may grow by at most a budget
// beyond what it already holds (setrlimit RLIMIT_AS = VmSize at the start + budget): whatever
// the code under test allocates past the budget fails there (std::bad_alloc, or a crash)
// instead of quietly succeeding on a machine with memory to spare. The child reports back a
// line of text; the test compares it.
//
// Not under AddressSanitizer, whose shadow memory reserves terabytes of address space: tests
// call GTEST_SKIP() when addressLimitWorks() is false.

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace attn::test {

inline constexpr unsigned long long kMiB = 1ull << 20;

inline bool addressLimitWorks()
{
#if defined(__SANITIZE_ADDRESS__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

// This process's address space, from /proc/self/status (VmSize, in bytes).
inline unsigned long long addressSpaceInUse()
{
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmSize:") {
            unsigned long long kib = 0;
            in >> kib;
            return kib * 1024;
        }
        in.ignore(4096, '\n');
    }
    return 0;
}

struct LimitedRun {
    bool exited = false;  // the child ended normally (no signal)
    int signal = 0;       // the signal that ended it, if any
    std::string report;   // what the body returned, or "exception: ..." if it threw
};

// Runs `body` in a forked child limited to its present address space plus `budget` bytes.
inline LimitedRun runWithAddressBudget(unsigned long long budget,
                                       const std::function<std::string()>& body)
{
    int fds[2];
    LimitedRun run;
    if (pipe(fds) != 0) {
        run.report = "pipe failed";
        return run;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const unsigned long long cap = addressSpaceInUse() + budget;
        const rlimit limit{cap, cap};
        std::string report;
        if (setrlimit(RLIMIT_AS, &limit) != 0) {
            report = "setrlimit failed";
        } else {
            try {
                report = body();
            } catch (const std::exception& e) {
                report = std::string("exception: ") + e.what();
            } catch (...) {
                report = "exception";
            }
        }
        const char* p = report.data();
        std::size_t left = report.size();
        while (left > 0) {
            const ssize_t n = write(fds[1], p, left);
            if (n <= 0) break;
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    char buffer[4096];
    ssize_t n = 0;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0)
        run.report.append(buffer, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    run.exited = WIFEXITED(status);
    run.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return run;
}

}  // namespace attn::test
