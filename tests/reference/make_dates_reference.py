#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The dates task's texts written independently of the core, for tests/core/train/dates_task_test.cpp.

    /usr/bin/python3 tests/reference/make_dates_reference.py > tests/reference/fixtures/dates_reference.json

Dates from Python's datetime (the calendar, the count of days in the range), month names from
calendar.month_name, Chinese numerals spelled by a table of the spoken forms rather than by
rule. Every 389th date of 1900-01-01 .. 2099-12-31 and a few chosen ones (the ends of the range,
leap days, the tens of a month), each in the three forms.
"""
import calendar
import datetime
import json

DIGITS = "〇一二三四五六七八九"
SPOKEN = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九",
          10: "十", 11: "十一", 12: "十二", 13: "十三", 14: "十四", 15: "十五", 16: "十六",
          17: "十七", 18: "十八", 19: "十九", 20: "二十", 21: "二十一", 22: "二十二",
          23: "二十三", 24: "二十四", 25: "二十五", 26: "二十六", 27: "二十七", 28: "二十八",
          29: "二十九", 30: "三十", 31: "三十一"}


def texts(d):
    return {
        "arabic": f"{d.year}年{d.month}月{d.day}日",
        "chinese": "".join(DIGITS[int(c)] for c in str(d.year)) + "年" + SPOKEN[d.month] + "月"
                   + SPOKEN[d.day] + "日",
        "slashed": f"{d.year}/{d.month}/{d.day}",
        "target": f"{calendar.month_name[d.month]} {d.day}, {d.year}",
        "held_out": (d.year + d.month + d.day) % 10 == 0,
    }


def main():
    first, last = datetime.date(1900, 1, 1), datetime.date(2099, 12, 31)
    days = (last - first).days + 1
    every = [first + datetime.timedelta(days=i) for i in range(days)]
    chosen = [datetime.date(*t) for t in [(1900, 1, 1), (2099, 12, 31), (2000, 2, 29),
                                          (2026, 12, 4), (1999, 10, 10), (2020, 11, 30),
                                          (1900, 2, 28), (2024, 2, 29)]]
    cases = []
    for d in every[::389] + chosen:
        cases.append({"date": [d.year, d.month, d.day], **texts(d)})
    held = sum(1 for d in every if (d.year + d.month + d.day) % 10 == 0)
    lines = ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases)
    print(f'{{"days": {days}, "held_out": {held}, "cases": [\n{lines}\n]}}')


if __name__ == "__main__":
    main()
