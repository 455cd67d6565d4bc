// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The options of `attnlab train-model`, read into a RunSpec against the ranges of
// run_limits.h. Pure C++ so that the command line, its fuzz target and the option-space test
// under AddressSanitizer all run this one reader. What is wrong comes back as an
// ArgumentProblem (its facts, no prose): the command line says it in the user's language.
//
// Forms: "--name VALUE", "--name=VALUE", "-o VALUE"; "--attention-only" takes no value. Each
// option may be given once. --help is the command line's to answer before this is asked.

#include <string>
#include <vector>

#include "core/train/gpt2_run.h"
#include "core/train/run_limits.h"

namespace attn::gpt2 {

struct RunArguments {
    RunSpec spec;  // the corpus is not read here: corpusPath names it
    std::string corpusPath;
    std::string output;  // -o: the model folder
    std::string curve;   // --curve: the CSV of the losses (empty: none)
    long threads = 1;
    long stopAfter = 0;  // 0: every step
};

struct ArgumentProblem {
    enum class Kind {
        None,
        UnknownOption,    // `option` is not one of train-model's
        MissingValue,     // `option` needs a value and none followed
        UnexpectedValue,  // a flag (`option`) was given "=value"
        Twice,            // `option` was given twice
        Stray,            // `value` is not an option (nor an option's value)
        OutOfRange,       // `option`'s `value` is not a number in `range`
        NoData,           // neither --task nor --corpus, or both
        UnknownTask,      // --task `value` is not "induction"
        NoOutput,         // no -o
        EmptyValue,       // `option` was given an empty value (a path)
    };
    Kind kind = Kind::None;
    std::string option;  // without dashes: "context", "o"
    std::string value;
    SettingRange range{};

    [[nodiscard]] bool ok() const { return kind == Kind::None; }
};

// Reads `args` (the words after "train-model") into `out`.
ArgumentProblem parseRunArguments(const std::vector<std::string>& args, RunArguments& out);

// "--context: must be a whole number from 2 to 1024, not 99999" in plain English, for logs,
// tests and the fuzz target; the command line words it itself.
std::string describe(const ArgumentProblem& problem);

}  // namespace attn::gpt2
