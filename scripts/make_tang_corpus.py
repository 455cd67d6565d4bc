#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The corpus of the built-in model "tang": the poems of Debian's fortunes-zh package
(/usr/share/games/fortunes/tang300, GPL-3.0-or-later), with the terminal escape codes, the
titles and the author lines taken out: each poem's lines as they are (one couplet a line), the
poems separated by an empty line.

    /usr/bin/python3 scripts/make_tang_corpus.py [TANG300] > resources/models/tang/corpus.txt
"""
import re
import sys

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def poems(text):
    for entry in text.split("\n%\n"):
        lines = []
        for line in entry.split("\n"):
            if "\x1b" in line:  # the coloured title and author lines
                continue
            line = ESCAPE.sub("", line).strip()
            if line and line != "%":
                lines.append(line)
        if lines:
            yield "\n".join(lines)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/games/fortunes/tang300"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    sys.stdout.write("\n\n".join(poems(text)) + "\n")


if __name__ == "__main__":
    main()
