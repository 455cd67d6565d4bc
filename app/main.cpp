// attnlab: the workbench window, or a headless command.
//   attnlab                     open the window
//   attnlab bench-ui [options]  drive the real window offscreen and time slider updates
#include <cstring>

#include <QApplication>
#include <QCommandLineParser>

#include "ui/tools/slider_benchmark.h"
#include "ui/window/main_window.h"

namespace {

bool isHeadless(int argc, char** argv)
{
    return argc > 1 && std::strcmp(argv[1], "bench-ui") == 0;
}

int benchUi(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Moves a key slider in the real window and times each repaint."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("bench-ui"), QString());
    const QCommandLineOption sizes(QStringLiteral("sizes"),
                                   QApplication::translate("main", "Comma-separated n values."),
                                   QStringLiteral("list"), QStringLiteral("16,128,512,1024,2048"));
    const QCommandLineOption steps(QStringLiteral("steps"),
                                   QApplication::translate("main", "Slider steps per n."),
                                   QStringLiteral("count"), QStringLiteral("200"));
    const QCommandLineOption dk(QStringLiteral("dk"), QApplication::translate("main", "d_k."),
                                QStringLiteral("d"), QStringLiteral("64"));
    parser.addOptions({sizes, steps, dk});
    parser.process(args);
    attnlab::UiBenchmarkOptions o;
    o.sizes.clear();
    for (const QString& s : parser.value(sizes).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = s.toInt(&ok);
        if (!ok || n < 1) {
            qCritical("bench-ui: --sizes takes positive whole numbers");
            return 2;
        }
        o.sizes << n;
    }
    o.steps = std::max(1, parser.value(steps).toInt());
    o.dK = std::max(1, parser.value(dk).toInt());
    QTextStream out(stdout);
    attnlab::runUiBenchmark(o, out);
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const bool headless = isHeadless(argc, argv);
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNLAB_VERSION));
    if (headless) return benchUi(QApplication::arguments());

    attnlab::MainWindow window;
    window.show();
    return QApplication::exec();
}
