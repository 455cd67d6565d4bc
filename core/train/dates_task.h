// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator's task "dates": a Chinese date in one of three written forms, between
// 1900-01-01 and 2099-12-31, translated into the English date.
//
//   Arabic   2026年12月4日            digits without leading zeros
//   Chinese  二〇二六年十二月四日      the year digit by digit with 〇, month and day as
//                                      spoken (十, 十一, 二十, 二十一, 三十一)
//   Slashed  2026/12/4
//   target   December 4, 2026         month name, day without a leading zero, comma, year
//
// The fields cross: the year comes first in the source and last in the target, which is what
// a cross-attention head must learn to follow. Every character of both texts is labelled with
// the field it writes (year, month, day, or none for 年, /, the comma, spaces), so that an
// alignment can be scored against them.
//
// Dates whose year + month + day is divisible by 10 (about a tenth) are held out: never
// drawn for training, and what accuracy and alignment are measured on, so that an outside check
// can draw its own.

#include <cstdint>
#include <string>
#include <vector>

#include "core/random_init.h"

namespace attn::dates {

enum class DateForm { Arabic, Chinese, Slashed };
enum class DateField : std::uint8_t { None, Year, Month, Day };

inline constexpr int kFirstYear = 1900;
inline constexpr int kLastYear = 2099;
inline constexpr int kForms = 3;

struct Date {
    int year = kFirstYear;
    int month = 1;
    int day = 1;
    bool operator==(const Date&) const = default;
};

// A date and its two texts, with one field per character (Unicode code point) of each.
struct DatePair {
    Date date;
    DateForm form = DateForm::Arabic;
    std::string source, target;  // UTF-8
    std::vector<DateField> sourceFields, targetFields;
};

// Whether the date exists in the Gregorian calendar and lies in the task's range.
bool validDate(const Date& d);
// Whether the date is held out from training: (year + month + day) mod 10 == 0.
bool heldOut(const Date& d);
// Every valid date of the range, in order (73,049 of them).
std::vector<Date> allDates();

// The source text of `d` in `form`, the English target, and their fields.
DatePair datePair(const Date& d, DateForm form);

// `count` training pairs drawn from `rng`: a date uniform over those not held out, a form
// uniform over the three.
std::vector<DatePair> trainingPairs(Rng& rng, long count);

// The first `count` held-out dates in an order shuffled by `seed` (the same for any count), in
// `form`: the measure's fixed examples.
std::vector<DatePair> heldOutPairs(std::uint64_t seed, long count, DateForm form);

// "January" .. "December" for 1..12; "" otherwise.
std::string monthName(int month);

// "arabic", "chinese", "slashed".
const char* dateFormName(DateForm form);

}  // namespace attn::dates
