// SPDX-License-Identifier: GPL-3.0-or-later
// train-model's whole option space: every option at its minimum and its maximum is read and the
// run it asks for is made, stepped, measured and written (under AddressSanitizer in CI, which is
// what found the copy probe writing past its end at --context 8); one past either end is refused
// with the range. The reader refuses what is not an option, a value twice, a missing value.
#include "core/train/run_arguments.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "core/io/bounded_file.h"
#include "core/train/gpt2_export.h"
#include "model/model_files.h"

namespace attn::gpt2 {
namespace {

using Kind = ArgumentProblem::Kind;
namespace fs = std::filesystem;

// The smallest run: the option under test replaces its entry here.
std::vector<std::string> baseArguments(const std::string& out)
{
    return {"--task",   "induction", "--context", "16", "--d-model", "8", "--heads", "1",
            "--layers", "1",         "--steps",   "1",  "--batch",   "1", "-o",      out};
}

std::vector<std::string> with(std::vector<std::string> args, const std::string& option,
                              const std::string& value)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--" + option) {
            args[i + 1] = value;
            return args;
        }
    args.push_back("--" + option);
    args.push_back(value);
    return args;
}

std::string text(double v)
{
    char s[40];
    std::snprintf(s, sizeof s, "%.17g", v);
    return s;
}

// Makes the run `args` ask for, steps it once (or as far as --stop-after allows), measures and
// writes it; "" when all went well, else what stopped it. A step may be refused (NonFinite at
// --lr 10): that is a clear refusal too, and the folder is still written.
std::string runOnce(const std::vector<std::string>& args)
{
    RunArguments request;
    if (const ArgumentProblem p = parseRunArguments(args, request); !p.ok())
        return "parse: " + describe(p);
    if (request.spec.data == DataKind::Corpus) {
        if (Status s = readCorpus(request.corpusPath, request.spec.corpus); !s.ok())
            return "corpus: " + attn::describe(s);
    }
    // The measures' own sizes are not options: a few sequences keep a 1024-wide model's probe
    // from taking most of the test's time.
    request.spec.probeCount = 8;
    request.spec.detectCount = 2;
    std::unique_ptr<ModelRun> run;
    if (Status s = ModelRun::create(request.spec, run); !s.ok())
        return "create: " + attn::describe(s);
    if (Status s = checkModelFolder(request.output); !s.ok()) return "folder: " + attn::describe(s);
    run->setThreads(static_cast<int>(request.threads));
    const Status stepped = run->step();
    if (!stepped.ok() && stepped.code != StatusCode::NonFinite)
        return "step: " + attn::describe(stepped);
    run->measure();
    if (Status s = run->write(request.output, "attnlab train-model", 1.0); !s.ok())
        return "write: " + attn::describe(s);
    return {};
}

TEST(RunArguments, EveryOptionAtItsEndsRunsAndOnePastIsRefusedWithTheRange)
{
    model::test::TempDir dir;
    int runs = 0;
    for (const SettingRange& r : settingRanges()) {
        const std::string option(r.option);
        // Values that need a companion: 64 heads need a width they divide.
        std::vector<std::string> base = baseArguments((dir.path() / option).string());
        if (option == "heads") base = with(base, "d-model", "64");
        const double low = r.whole ? r.lo : r.lo + 1e-9;
        for (const double v : {low, r.hi}) {
            std::vector<std::string> args = with(base, option, text(v));
            // A context below the induction task's shortest runs on a corpus.
            if (option == "context" && v < kMinInductionContext) {
                const fs::path corpus = dir.path() / "corpus.txt";
                model::test::writeBytes(corpus, "abcabcabd");
                args = with(args, "task", "unused");
                args.erase(args.begin(), args.begin() + 2);
                args.insert(args.begin(), {"--corpus", corpus.string()});
            }
            EXPECT_EQ(runOnce(args), "") << option << " = " << text(v);
            ++runs;
        }
        for (const double past : {r.whole ? r.lo - 1 : r.lo, r.whole ? r.hi + 1 : r.hi * 1.0001}) {
            RunArguments request;
            const ArgumentProblem p = parseRunArguments(with(base, option, text(past)), request);
            EXPECT_EQ(p.kind, Kind::OutOfRange) << option << " = " << text(past);
            EXPECT_EQ(p.option, option);
            EXPECT_EQ(p.range.hi, r.hi);
        }
    }
    EXPECT_EQ(runs, 2 * static_cast<int>(settingRanges().size()));
}

TEST(RunArguments, AnInductionContextBelowSixteenIsRefusedBeforeAnythingIsAllocated)
{
    RunArguments request;
    ASSERT_TRUE(parseRunArguments(with(baseArguments("x"), "context", "8"), request).ok());
    std::unique_ptr<ModelRun> run;
    const Status s = ModelRun::create(request.spec, run);
    EXPECT_EQ(s.code, StatusCode::ConfigField);
    EXPECT_EQ(s.field, "context");
    EXPECT_NE(s.detail.find("at least 16"), std::string::npos) << s.detail;
    EXPECT_EQ(run, nullptr);
}

TEST(RunArguments, CombinationsTooLargeToRunAreRefusedWithTheirFigures)
{
    RunArguments request;
    std::vector<std::string> args = with(baseArguments("x"), "d-model", "1024");
    args = with(args, "layers", "48");
    ASSERT_TRUE(parseRunArguments(args, request).ok());
    std::unique_ptr<ModelRun> run;
    Status s = ModelRun::create(request.spec, run);
    EXPECT_EQ(s.code, StatusCode::TooLarge);
    EXPECT_EQ(s.field, "memory");
    EXPECT_GT(s.bytesNeeded, s.bytesBudget);
    EXPECT_EQ(s.bytesBudget, kMaxRunBytes);

    args = with(baseArguments("x"), "steps", "10000000");
    args = with(with(with(args, "layers", "48"), "heads", "64"), "d-model", "64");
    ASSERT_TRUE(parseRunArguments(args, request).ok());
    s = ModelRun::create(request.spec, run);
    EXPECT_EQ(s.code, StatusCode::TooLarge);
    EXPECT_EQ(s.field, "training.json");
    EXPECT_GT(s.bytesNeeded, kMaxRecordBytes);
}

TEST(RunArguments, WhatIsNotAnOptionOrIsGivenTwiceOrLacksItsValueIsNamed)
{
    RunArguments r;
    const auto kindOf = [&r](std::vector<std::string> args) {
        return parseRunArguments(args, r).kind;
    };
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--layer", "2"}), Kind::UnknownOption);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--layers"}), Kind::MissingValue);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--layers", "2", "--layers=3"}),
              Kind::Twice);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--output", "y"}), Kind::Twice);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "stray"}), Kind::Stray);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--attention-only=yes"}),
              Kind::UnexpectedValue);
    EXPECT_EQ(kindOf({"--task", "induction", "--corpus", "c", "-o", "x"}), Kind::NoData);
    EXPECT_EQ(kindOf({"--task", "copy", "-o", "x"}), Kind::UnknownTask);
    EXPECT_EQ(kindOf({"--task", "induction"}), Kind::NoOutput);
    EXPECT_EQ(kindOf({"--task", "induction", "-o", ""}), Kind::EmptyValue);
    for (const char* bad : {"nan", "inf", "1e999", "0x10", "2.5", " 2", "", "1e-400"})
        EXPECT_EQ(kindOf({"--task", "induction", "-o", "x", "--layers", bad}), Kind::OutOfRange)
            << bad;
    ASSERT_TRUE(parseRunArguments({"--task=induction", "--layers=3", "--lr=0.01",
                                   "--attention-only", "--output=dir", "--curve", "c.csv"},
                                  r)
                    .ok());
    EXPECT_EQ(r.spec.layers, 3);
    EXPECT_EQ(r.spec.learningRate, 0.01);
    EXPECT_TRUE(r.spec.attentionOnly);
    EXPECT_EQ(r.output, "dir");
    EXPECT_EQ(r.curve, "c.csv");
}

TEST(RunArguments, ACorpusThatIsADeviceAFifoOrTooLargeIsRefusedByName)
{
    model::test::TempDir dir;
    std::string out;
    Status s = readCorpus("/dev/zero", out);
    EXPECT_EQ(s.code, StatusCode::FileOpen);
    EXPECT_EQ(s.file, "/dev/zero");
    EXPECT_NE(s.detail.find("character device"), std::string::npos) << s.detail;
    const fs::path fifo = dir.path() / "fifo.txt";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    s = readCorpus(fifo.string(), out);  // returns at once: nobody writes it
    EXPECT_NE(s.detail.find("FIFO"), std::string::npos) << s.detail;
    const fs::path huge = dir.path() / "huge.txt";
    {
        std::ofstream(huge) << "x";
    }
    fs::resize_file(huge, std::uintmax_t{2} << 30);  // sparse: 2 GiB that take no room
    s = readCorpus(huge.string(), out);
    EXPECT_NE(s.detail.find("at most 16 MiB"), std::string::npos) << s.detail;
    EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace attn::gpt2
