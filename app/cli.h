// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The headless commands of attnlab (render, compute, lessons, --help, --version).
// main() asks isCliCommand() before creating the application (to choose the
// offscreen platform) and then hands the arguments to runCli().

#include <cstddef>

#include <QCommandLineOption>
#include <QStringList>

class QCommandLineParser;

namespace attnlab {

struct Session;

namespace cli {

enum ExitCode { Success = 0, WrongUsage = 2, BadInput = 3, WriteFailed = 4 };

// True when argv[1] names a headless command or --help/--version.
bool isCliCommand(int argc, char** argv);
// argv as strings, taken before QApplication removes the arguments it knows (-session,
// -style, ...): `attnlab render --session FILE` must see its own --session.
QStringList rawArguments(int argc, char** argv);
// Refuses (WrongUsage, with the argument and the byte named on stderr) arguments that are not
// valid UTF-8: converted to text they would be changed silently (a byte replaced by U+FFFD),
// and a file name so changed names another file. Success when every argument is UTF-8.
int refuseNonUtf8(int argc, char** argv);
// Runs the command in `arguments` (program name first); returns the exit code.
int runCli(const QStringList& arguments);

// The commands (cli_commands.cpp); `args` start with the command name.
int runRender(const QStringList& args);
int runCompute(const QStringList& args);
int runLessons(const QStringList& args);
// attnlab model (cli_model.cpp): a GPT-2 or BERT checkpoint on a text.
int runModel(const QStringList& args);
QString modelUsage();
// attnlab train (cli_train.cpp): learns a session's projections on a task.
int runTrain(const QStringList& args);
QString trainUsage();
// attnlab train-model (cli_train_model.cpp): trains a whole GPT-2 and writes its folder.
int runTrainModel(const QStringList& args);
QString trainModelUsage();
// attnlab train-model --task dates (cli_train_dates.cpp): trains the dates translator.
int runTrainDates(const QStringList& args);
QString trainDatesUsage();
// An argument as a shell would need it quoted, for the commands recorded in training.json.
QString quotedArgument(const QString& arg);
// attnlab heads (cli_heads.cpp): every head's detector scores.
int runHeads(const QStringList& args);
QString headsUsage();
// attnlab generate (cli_generate.cpp): a causal model writes after a text.
int runGenerate(const QStringList& args);
QString generateUsage();
// attnlab models (cli_heads.cpp): the built-in trained models.
int runModels(const QStringList& args);
// attnlab align (cli_align.cpp): the cross-attention heads' alignment of a dates translator.
int runAlign(const QStringList& args);
QString alignUsage();
QString modelsUsage();

// Options every command shares.
inline const QCommandLineOption kHelpOption({QStringLiteral("h"), QStringLiteral("help")},
                                            QString());
inline const QCommandLineOption kOutputOption({QStringLiteral("o"), QStringLiteral("output")},
                                              QString(), QStringLiteral("file"));
// Parses `args` (the command name first) with --help added; false when the caller should
// return `code` (a usage error, or the help was printed).
bool parseCommand(QCommandLineParser& parser, const QStringList& args, int& code);

// Loads the session named by --session FILE or --lesson ID (exactly one must be given);
// false with `code` set (usage error or bad input, message printed) when it cannot.
bool loadNamedSession(const QCommandLineParser& parser, const QCommandLineOption& sessionOption,
                      const QCommandLineOption& lessonOption, const QString& command,
                      Session& session, QString& name, int& code);

// Usage text of one command, or of all when `command` is empty.
QString usageText(const QString& command = QString());
// Prints "attnlab: MESSAGE" and the usage of `command` to stderr; returns WrongUsage.
int usageError(const QString& command, const QString& message);
// Prints "attnlab: MESSAGE" to stderr and returns `code`.
int fail(int code, const QString& message);
// A size such as "800M", "4G", "1048576", "512K" (powers of 1024); false if it is not one.
bool parseSize(const QString& text, std::size_t& out);
// Checks, before the command works, that each of `paths` can be written and is neither one of
// the command's inputs read so far nor another of its outputs (core/io/command_files.h, which
// runCli opens); an empty entry (stdout) is skipped. False with `code` set (WriteFailed, the
// path and the reason on stderr).
bool checkOutputs(const QStringList& paths, int& code);
// Writes `bytes` to `path` (atomically), or to stdout when `path` is empty; returns Success or
// WriteFailed (with the reason on stderr).
int writeOutput(const QString& path, const QByteArray& bytes);
// Prints text to stdout; Success, or WriteFailed (with the reason on stderr) when it could not.
int printOut(const QString& text);
// Prints text to stderr as it is (a note that does not end the command).
void printErr(const QString& text);

}  // namespace cli

// The built-in lessons (cli_lessons.cpp): the one place the command line finds them.
bool findLesson(const QString& id, Session& session);
QStringList lessonIds();
// The lesson's title in the lesson language (empty for an unknown id).
QString lessonTitle(const QString& id);

}  // namespace attnlab
