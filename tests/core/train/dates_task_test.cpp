// SPDX-License-Identifier: GPL-3.0-or-later
// The translator's task "dates": its texts in the three forms and the English target equal an
// independent writing of them (tests/reference/make_dates_reference.py: Python's datetime and a
// table of spoken numerals), the range holds every day of 1900..2099, a tenth is held out and
// never drawn for training, every character is labelled with its field, and draws are seeded.
#include "core/train/dates_task.h"

#include <gtest/gtest.h>
#include <set>

#include "model/model_files.h"

namespace attn::dates {
namespace {

using attn::model::test::json;

json datesReference()
{
    return json::parse(attn::model::test::readBytes(
        attn::model::test::fs::path(ATTNLAB_FIXTURE_DIR) / "dates_reference.json"));
}

// Code points of a UTF-8 text.
std::size_t characters(const std::string& s)
{
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

TEST(DatesTask, TheTextsAreThoseOfAnIndependentWriting)
{
    const json want = datesReference();
    ASSERT_GT(want["cases"].size(), 150u);
    for (const json& c : want["cases"]) {
        const Date d{c["date"][0].get<int>(), c["date"][1].get<int>(), c["date"][2].get<int>()};
        SCOPED_TRACE(c.dump());
        ASSERT_TRUE(validDate(d));
        EXPECT_EQ(heldOut(d), c["held_out"].get<bool>());
        for (const DateForm form : {DateForm::Arabic, DateForm::Chinese, DateForm::Slashed}) {
            const DatePair p = datePair(d, form);
            EXPECT_EQ(p.source, c[dateFormName(form)].get<std::string>());
            EXPECT_EQ(p.target, c["target"].get<std::string>());
            EXPECT_EQ(p.sourceFields.size(), characters(p.source));
            EXPECT_EQ(p.targetFields.size(), characters(p.target));
        }
    }
}

TEST(DatesTask, TheRangeHoldsEveryDayAndATenthIsHeldOut)
{
    const json want = datesReference();
    const std::vector<Date> all = allDates();
    EXPECT_EQ(static_cast<long>(all.size()), want["days"].get<long>());
    EXPECT_EQ(std::count_if(all.begin(), all.end(), heldOut), want["held_out"].get<long>());
    EXPECT_FALSE(validDate({1899, 12, 31}));
    EXPECT_FALSE(validDate({2100, 1, 1}));
    EXPECT_FALSE(validDate({1900, 2, 29}));  // 1900 is not a leap year
    EXPECT_TRUE(validDate({2000, 2, 29}));
}

TEST(DatesTask, EveryCharacterWritesItsField)
{
    // 二〇二六年十二月四日 -> December 4, 2026: the year first in the source, last in the target.
    const DatePair p = datePair({2026, 12, 4}, DateForm::Chinese);
    const std::vector<DateField> source = {
        DateField::Year,  DateField::Year,  DateField::Year, DateField::Year, DateField::None,
        DateField::Month, DateField::Month, DateField::None, DateField::Day,  DateField::None};
    EXPECT_EQ(p.sourceFields, source);
    std::vector<DateField> target(8, DateField::Month);  // "December"
    target.push_back(DateField::None);
    target.push_back(DateField::Day);
    target.push_back(DateField::None);
    target.push_back(DateField::None);
    target.insert(target.end(), 4, DateField::Year);
    EXPECT_EQ(p.targetFields, target);
}

TEST(DatesTask, TrainingNeverDrawsAHeldOutDateAndASeedDrawsTheSame)
{
    Rng a(7), b(7), c(8);
    const std::vector<DatePair> first = trainingPairs(a, 3000);
    const std::vector<DatePair> again = trainingPairs(b, 3000);
    const std::vector<DatePair> other = trainingPairs(c, 3000);
    std::set<int> forms;
    bool differs = false;
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_FALSE(heldOut(first[i].date));
        EXPECT_EQ(first[i].source, again[i].source);
        differs = differs || first[i].source != other[i].source;
        forms.insert(static_cast<int>(first[i].form));
    }
    EXPECT_TRUE(differs);
    EXPECT_EQ(forms.size(), 3u);
    const std::vector<DatePair> held = heldOutPairs(1, 1000, DateForm::Slashed);
    ASSERT_EQ(held.size(), 1000u);
    std::set<std::string> distinct;
    for (const DatePair& p : held) {
        EXPECT_TRUE(heldOut(p.date));
        distinct.insert(p.source);
    }
    EXPECT_EQ(distinct.size(), 1000u);
    // The same order whatever the count: the first ten of a thousand are the first ten.
    const std::vector<DatePair> ten = heldOutPairs(1, 10, DateForm::Slashed);
    for (std::size_t i = 0; i < ten.size(); ++i) EXPECT_EQ(ten[i].date, held[i].date);
}

}  // namespace
}  // namespace attn::dates
