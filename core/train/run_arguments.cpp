// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/run_arguments.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace attn::gpt2 {

namespace {

using Kind = ArgumentProblem::Kind;

enum class Takes { Setting, Text, Flag };

struct OptionInfo {
    std::string_view name;
    Takes takes;
    Setting setting = Setting::Layers;  // Takes::Setting
};

constexpr OptionInfo kOptions[] = {
    {"task", Takes::Text},
    {"corpus", Takes::Text},
    {"o", Takes::Text},
    {"output", Takes::Text},
    {"curve", Takes::Text},
    {"attention-only", Takes::Flag},
    {"layers", Takes::Setting, Setting::Layers},
    {"heads", Takes::Setting, Setting::Heads},
    {"d-model", Takes::Setting, Setting::DModel},
    {"context", Takes::Setting, Setting::Context},
    {"steps", Takes::Setting, Setting::Steps},
    {"batch", Takes::Setting, Setting::Batch},
    {"lr", Takes::Setting, Setting::Rate},
    {"seed", Takes::Setting, Setting::Seed},
    {"threads", Takes::Setting, Setting::Threads},
    {"init-std", Takes::Setting, Setting::InitStd},
    {"warmup", Takes::Setting, Setting::Warmup},
    {"final-lr", Takes::Setting, Setting::FinalFraction},
    {"measure-every", Takes::Setting, Setting::MeasureEvery},
    {"stop-after", Takes::Setting, Setting::StopAfter},
};

const OptionInfo* find(std::string_view name)
{
    for (const OptionInfo& o : kOptions)
        if (o.name == name) return &o;
    return nullptr;
}

ArgumentProblem problem(Kind kind, std::string option, std::string value = {})
{
    ArgumentProblem p;
    p.kind = kind;
    p.option = std::move(option);
    p.value = std::move(value);
    return p;
}

// The whole text as a number (no trailing characters, no hex, no inf or nan).
bool readNumber(const std::string& text, double& out)
{
    if (text.empty() || text.size() > 64) return false;
    if (text.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
    errno = 0;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && errno != ERANGE && std::isfinite(out);
}

// Puts a setting's value where it belongs.
void assign(Setting setting, double v, RunArguments& out)
{
    const auto whole = static_cast<long>(v);
    RunSpec& s = out.spec;
    switch (setting) {
    case Setting::Layers: s.layers = whole; break;
    case Setting::Heads: s.heads = whole; break;
    case Setting::DModel: s.channels = whole; break;
    case Setting::Context: s.context = whole; break;
    case Setting::Steps: s.steps = whole; break;
    case Setting::Batch: s.batch = whole; break;
    case Setting::Rate: s.learningRate = v; break;
    case Setting::Seed: s.seed = static_cast<std::uint64_t>(whole); break;
    case Setting::Threads: out.threads = whole; break;
    case Setting::InitStd: s.initStd = v; break;
    case Setting::Warmup: s.warmup = whole; break;
    case Setting::FinalFraction: s.finalFraction = v; break;
    case Setting::MeasureEvery: s.evalEvery = whole; break;
    case Setting::StopAfter: out.stopAfter = whole; break;
    }
}

ArgumentProblem take(const OptionInfo& o, const std::string& value, RunArguments& out,
                     std::string& task)
{
    const std::string name(o.name);
    if (o.takes == Takes::Setting) {
        const SettingRange& r = rangeOf(o.setting);
        double v = 0;
        if (!readNumber(value, v) || !inRange(r, v)) {
            ArgumentProblem p = problem(Kind::OutOfRange, name, value);
            p.range = r;
            return p;
        }
        assign(o.setting, v, out);
        return {};
    }
    if (value.empty()) return problem(Kind::EmptyValue, name);
    if (name == "task") task = value;
    if (name == "corpus") out.corpusPath = value;
    if (name == "o" || name == "output") out.output = value;
    if (name == "curve") out.curve = value;
    return {};
}

// What the options say together: one source of data, a known task, an output.
ArgumentProblem whole(const std::set<std::string>& seen, const std::string& task, RunArguments& out)
{
    if (seen.count("task") == seen.count("corpus")) return problem(Kind::NoData, "task");
    if (seen.count("task") && task != "induction") return problem(Kind::UnknownTask, "task", task);
    if (!seen.count("o") && !seen.count("output")) return problem(Kind::NoOutput, "o");
    out.spec.data = seen.count("corpus") ? DataKind::Corpus : DataKind::Induction;
    out.spec.corpusName = out.corpusPath;
    return {};
}

}  // namespace

ArgumentProblem parseRunArguments(const std::vector<std::string>& args, RunArguments& out)
{
    RunArguments parsed;
    std::set<std::string> seen;
    std::string task;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& word = args[i];
        std::string name, value;
        bool inlineValue = false;
        if (word.rfind("--", 0) == 0 && word.size() > 2) {
            name = word.substr(2);
        } else if (word.size() >= 2 && word[0] == '-' && word[1] != '-') {
            name = word.substr(1);
        } else {
            return problem(Kind::Stray, "", word);
        }
        if (const std::size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
            inlineValue = true;
        }
        const OptionInfo* o = find(name);
        if (o == nullptr) return problem(Kind::UnknownOption, name);
        const std::string key = name == "output" ? "o" : name;
        if (!seen.insert(key).second) return problem(Kind::Twice, name);
        if (o->takes == Takes::Flag) {
            if (inlineValue) return problem(Kind::UnexpectedValue, name, value);
            parsed.spec.attentionOnly = true;
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= args.size()) return problem(Kind::MissingValue, name);
            value = args[++i];
        }
        if (ArgumentProblem p = take(*o, value, parsed, task); !p.ok()) return p;
    }
    if (ArgumentProblem p = whole(seen, task, parsed); !p.ok()) return p;
    out = std::move(parsed);
    return {};
}

std::string describe(const ArgumentProblem& p)
{
    const std::string option = (p.option.size() == 1 ? "-" : "--") + p.option;
    switch (p.kind) {
    case Kind::None: return "fine";
    case Kind::UnknownOption: return option + ": no such option";
    case Kind::MissingValue: return option + " needs a value";
    case Kind::UnexpectedValue: return option + " takes no value";
    case Kind::Twice: return option + " is given twice";
    case Kind::Stray: return "\"" + p.value + "\" is not an option";
    case Kind::OutOfRange: {
        char lo[32], hi[32];
        std::snprintf(lo, sizeof lo, "%.6g", p.range.lo);
        std::snprintf(hi, sizeof hi, "%.6g", p.range.hi);
        return option +
               (p.range.whole
                    ? " must be a whole number from " + std::string(lo) + " to " + hi
                    : " must be a number above " + std::string(lo) + " and at most " + hi) +
               ", not \"" + p.value + "\"";
    }
    case Kind::NoData: return "give one of --task induction and --corpus FILE";
    case Kind::UnknownTask: return "--task \"" + p.value + "\" is neither induction nor dates";
    case Kind::NoOutput: return "-o DIR is required";
    case Kind::EmptyValue: return option + " is given an empty file name";
    }
    return "wrong";
}

}  // namespace attn::gpt2
