// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/dates_task.h"

#include <algorithm>
#include <array>

namespace attn::dates {

namespace {

constexpr std::array<const char*, 12> kMonths = {"January",   "February", "March",    "April",
                                                 "May",       "June",     "July",     "August",
                                                 "September", "October",  "November", "December"};
// 〇 一 二 ... 九 and 十, each three bytes in UTF-8.
constexpr std::array<const char*, 10> kDigits = {"〇", "一", "二", "三", "四",
                                                 "五", "六", "七", "八", "九"};
constexpr const char* kTen = "十";

// Appends `text` (ASCII or whole UTF-8 characters) labelling each character with `field`.
void put(std::string& out, std::vector<DateField>& fields, const std::string& text, DateField field)
{
    out += text;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) fields.push_back(field);
}

// 1..31 as spoken: 四, 十, 十二, 二十, 二十一, 三十一.
std::string spoken(int n)
{
    const int tens = n / 10;
    const int ones = n % 10;
    std::string s;
    if (tens > 1) s += kDigits[static_cast<std::size_t>(tens)];
    if (tens > 0) s += kTen;
    if (ones > 0) s += kDigits[static_cast<std::size_t>(ones)];
    return s;
}

std::string yearDigits(int year)
{
    std::string s;
    for (const char c : std::to_string(year)) s += kDigits[static_cast<std::size_t>(c - '0')];
    return s;
}

int daysIn(int year, int month)
{
    static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

}  // namespace

std::string monthName(int month)
{
    return month >= 1 && month <= 12 ? kMonths[static_cast<std::size_t>(month - 1)] : "";
}

bool validDate(const Date& d)
{
    return d.year >= kFirstYear && d.year <= kLastYear && d.month >= 1 && d.month <= 12 &&
           d.day >= 1 && d.day <= daysIn(d.year, d.month);
}

bool heldOut(const Date& d)
{
    return (d.year + d.month + d.day) % 10 == 0;
}

std::vector<Date> allDates()
{
    std::vector<Date> out;
    for (int y = kFirstYear; y <= kLastYear; ++y)
        for (int m = 1; m <= 12; ++m)
            for (int d = 1; d <= daysIn(y, m); ++d) out.push_back({y, m, d});
    return out;
}

DatePair datePair(const Date& d, DateForm form)
{
    DatePair p;
    p.date = d;
    p.form = form;
    std::string& s = p.source;
    std::vector<DateField>& f = p.sourceFields;
    switch (form) {
    case DateForm::Arabic:
        put(s, f, std::to_string(d.year), DateField::Year);
        put(s, f, "年", DateField::None);
        put(s, f, std::to_string(d.month), DateField::Month);
        put(s, f, "月", DateField::None);
        put(s, f, std::to_string(d.day), DateField::Day);
        put(s, f, "日", DateField::None);
        break;
    case DateForm::Chinese:
        put(s, f, yearDigits(d.year), DateField::Year);
        put(s, f, "年", DateField::None);
        put(s, f, spoken(d.month), DateField::Month);
        put(s, f, "月", DateField::None);
        put(s, f, spoken(d.day), DateField::Day);
        put(s, f, "日", DateField::None);
        break;
    case DateForm::Slashed:
        put(s, f, std::to_string(d.year), DateField::Year);
        put(s, f, "/", DateField::None);
        put(s, f, std::to_string(d.month), DateField::Month);
        put(s, f, "/", DateField::None);
        put(s, f, std::to_string(d.day), DateField::Day);
        break;
    }
    put(p.target, p.targetFields, kMonths[static_cast<std::size_t>(d.month - 1)], DateField::Month);
    put(p.target, p.targetFields, " ", DateField::None);
    put(p.target, p.targetFields, std::to_string(d.day), DateField::Day);
    put(p.target, p.targetFields, ", ", DateField::None);
    put(p.target, p.targetFields, std::to_string(d.year), DateField::Year);
    return p;
}

std::vector<DatePair> trainingPairs(Rng& rng, long count)
{
    static const std::vector<Date> trained = [] {
        std::vector<Date> all = allDates();
        std::erase_if(all, heldOut);
        return all;
    }();
    std::vector<DatePair> out;
    out.reserve(static_cast<std::size_t>(std::max(0L, count)));
    for (long i = 0; i < count; ++i) {
        const auto at = static_cast<std::size_t>(rng.nextU64() % trained.size());
        const auto form = static_cast<DateForm>(rng.nextU64() % kForms);
        out.push_back(datePair(trained[at], form));
    }
    return out;
}

std::vector<DatePair> heldOutPairs(std::uint64_t seed, long count, DateForm form)
{
    std::vector<Date> held = allDates();
    std::erase_if(held, [](const Date& d) { return !heldOut(d); });
    // Fisher-Yates with the core's generator: the same order on every machine.
    Rng rng(seed);
    for (std::size_t i = held.size(); i > 1; --i)
        std::swap(held[i - 1], held[static_cast<std::size_t>(rng.nextU64() % i)]);
    held.resize(std::min(held.size(), static_cast<std::size_t>(std::max(0L, count))));
    std::vector<DatePair> out;
    for (const Date& d : held) out.push_back(datePair(d, form));
    return out;
}

const char* dateFormName(DateForm form)
{
    switch (form) {
    case DateForm::Arabic: return "arabic";
    case DateForm::Chinese: return "chinese";
    case DateForm::Slashed: return "slashed";
    }
    return "?";
}

}  // namespace attn::dates
