// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/lesson_catalog.h"

#include <QCoreApplication>
#include <QLocale>

#include "core/io/json_read.h"
#include "ui/readers/bounded_read.h"

namespace attnlab {

namespace {

QString& languageOverride()
{
    static QString code;
    return code;
}

QByteArray readResource(const QString& path)
{
    QByteArray bytes;
    QString ignored;  // a missing lesson file shows as an empty one, which the parser names
    (void)readUserFile(path, kMaxSessionFileBytes, bytes, ignored);
    return bytes;
}

QList<Lesson> readCatalog()
{
    const QString dir = QStringLiteral(":/lessons/");
    return parseLessonCatalog(readResource(dir + QStringLiteral("lessons.json")), dir,
                              [](const QString& path) { return readResource(path); });
}

bool chinese()
{
    return lessonLanguage() == QLatin1String("zh");
}

}  // namespace

QList<Lesson> parseLessonCatalog(const QByteArray& json, const QString& dir,
                                 const std::function<QByteArray(const QString&)>& read)
{
    QList<Lesson> out;
    nlohmann::json index;
    if (!attn::io::parseJson(
             std::string_view(json.constData(), static_cast<std::size_t>(json.size())), index)
             .ok() ||
        !index.is_object() || !index.contains("lessons") || !index["lessons"].is_array())
        return out;
    for (const nlohmann::json& o : index["lessons"]) {
        if (!o.is_object()) continue;
        auto str = [&o](const char* key) {
            const auto it = o.find(key);
            return it != o.end() && it->is_string()
                       ? QString::fromStdString(it->get_ref<const std::string&>())
                       : QString();
        };
        Lesson l;
        l.id = str("id");
        l.titleEn = str("title_en");
        l.titleZh = str("title_zh");
        l.summaryEn = str("summary_en");
        l.summaryZh = str("summary_zh");
        l.textEn = QString::fromUtf8(read(dir + str("text_en")));
        l.textZh = QString::fromUtf8(read(dir + str("text_zh")));
        l.sessionPath = dir + str("session");
        if (const auto it = o.find("layout"); it != o.end()) l.layout = dockLayoutFrom(*it);
        if (l.id.isEmpty()) continue;
        l.number = static_cast<int>(out.size()) + 1;
        out << l;
    }
    return out;
}

QString Lesson::title() const
{
    return chinese() ? titleZh : titleEn;
}

QString Lesson::summary() const
{
    return chinese() ? summaryZh : summaryEn;
}

QString Lesson::text() const
{
    return chinese() ? textZh : textEn;
}

QString Lesson::numberedTitle() const
{
    // The lesson language may differ from the interface's, so this is not a tr() string.
    return (chinese() ? QStringLiteral("第 %1 课 — %2") : QStringLiteral("Lesson %1 — %2"))
        .arg(number)
        .arg(title());
}

const QList<Lesson>& lessons()
{
    static const QList<Lesson> all = readCatalog();
    return all;
}

const Lesson* findLessonById(const QString& id)
{
    for (const Lesson& l : lessons())
        if (l.id == id) return &l;
    return nullptr;
}

bool loadLesson(const QString& id, Session& session, ViewState& view, FileError& error)
{
    const Lesson* lesson = findLessonById(id);
    if (!lesson) {
        error.file = id;
        error.field.clear();
        error.problem =
            QCoreApplication::translate("attnlab::Lessons", "no lesson named %1").arg(id);
        return false;
    }
    QByteArray bytes;
    if (!readUserFile(lesson->sessionPath, kMaxSessionFileBytes, bytes, error.problem)) {
        error.file = lesson->sessionPath;
        error.field.clear();
        return false;
    }
    SessionFile file;
    if (!parseSessionJson(bytes, lesson->sessionPath, file, error)) return false;
    session = file.session;
    view = file.view;
    return true;
}

namespace {

bool isHan(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x3400 && u <= 0x4DBF) || (u >= 0x4E00 && u <= 0x9FFF) ||
           (u >= 0xF900 && u <= 0xFAFF);
}

// Chinese text or punctuation that a line may end with (before an opening quote).
bool endsChinese(QChar c)
{
    return isHan(c) || QStringView(u"，。、；：！？）」』”").contains(c);
}

// Chinese text or an opening mark that a line may start with (after a closing quote).
bool startsChinese(QChar c)
{
    return isHan(c) || QStringView(u"（「『“").contains(c);
}

}  // namespace

QString withBreaksAroundQuotes(const QString& text)
{
    static constexpr QChar kOpen(0x201C), kClose(0x201D), kBreak(0x200B);
    QString out;
    out.reserve(text.size() + text.size() / 16);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == kOpen && i > 0 && endsChinese(text[i - 1]) && !out.endsWith(kBreak)) out += kBreak;
        out += c;
        if (c == kClose && i + 1 < text.size() && startsChinese(text[i + 1])) out += kBreak;
    }
    return out;
}

QString lessonLanguage()
{
    const QString& code = languageOverride();
    if (!code.isEmpty()) return code;
    return QLocale().language() == QLocale::Chinese ? QStringLiteral("zh") : QStringLiteral("en");
}

void setLessonLanguage(const QString& code)
{
    languageOverride() =
        code == QLatin1String("zh") || code == QLatin1String("en") ? code : QString();
}

}  // namespace attnlab
