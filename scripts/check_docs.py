#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the Markdown documents against themselves and against the tree.

  1. No heading appears twice in one document (same level and text) in README.md and docs/*.md:
     a copied section is the usual way a page comes to say two things at once, and the second
     copy's anchor is unreachable. Headings inside fenced code blocks are not headings.
  2. README.md's layout table (the section "## Layout", first column: `folder/`) names only
     folders that exist, and misses none: every top-level folder of the tree, and every subfolder
     of a folder the table breaks down (it lists `core/kernels/`, so every folder directly in
     core/ must have its row). The tree is what git tracks; without git, the folders on disk
     apart from build*/ and dot folders.

Each problem is printed as FILE:LINE: what. Exit status 0 when there is none, 1 otherwise.

    scripts/check_docs.py              self-test, then check the tree (what CI runs)
    scripts/check_docs.py --self-test  only feed the checks documents with known faults
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[#>|]|[-*+][ \t]|\d+[.)][ \t]|$))")


def headings(lines):
    """(line number, level, text) of every ATX and setext heading outside fenced code blocks."""
    fence = None  # the opening fence's character and length while inside a block
    previous = None  # the last line, if it could be a setext heading's text
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1] \
                    and not m.group(2).strip():
                fence = None
            previous = None
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = (m.group(1)[0], len(m.group(1)))
            previous = None
            continue
        m = ATX.match(line)
        if m:
            # A closing sequence of #s is not part of the text.
            text = re.sub(r"(?:^|[ \t]+)#+$", "", (m.group(2) or "")).strip()
            yield number, len(m.group(1)), text
            previous = None
            continue
        m = SETEXT.match(line)
        if m and previous:
            yield previous[0], 1 if m.group(1)[0] == "=" else 2, previous[1].strip()
            previous = None
            continue
        previous = None if NOT_PARAGRAPH.match(line) else (number, line)


def duplicate_headings(name, text):
    problems, seen = [], {}
    for number, level, heading in headings(text.splitlines()):
        key = (level, " ".join(heading.split()))
        if key in seen:
            problems.append(f"{name}:{number}: heading '{'#' * level} {key[1]}' appears again "
                            f"(first at line {seen[key]})")
        else:
            seen[key] = number
    return problems


def tracked_folders(root, use_git=True):
    """Every folder (at any depth, as 'a/b') that holds a file of the tree, and whether git said
    which files those are."""
    files = None
    if use_git:
        try:
            out = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True,
                                 capture_output=True).stdout
            files = [f for f in out.decode("utf-8", "replace").split("\0") if f]
        except (OSError, subprocess.CalledProcessError):
            files = None
    tracked = files is not None
    if files is None:
        files = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")
                       and not (top == root and d.startswith("build"))]
            files += [os.path.relpath(os.path.join(top, n), root) for n in names]
    folders = set()
    for f in files:
        parts = f.replace(os.sep, "/").split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folders.add("/".join(parts[:depth]))
    return folders, tracked


def layout_rows(lines):
    """The line of '## Layout' and the (line, folder) of each row of its table, or None."""
    start = None
    rows = []
    for number, level, text in headings(lines):
        if start is None and level == 2 and text == "Layout":
            start = number
        elif start is not None and level <= 2:
            end = number
            break
    else:
        end = len(lines) + 1
    if start is None:
        return None, []
    table_lines = [(n, lines[n - 1]) for n in range(start + 1, end)
                   if lines[n - 1].lstrip().startswith("|")]
    for number, line in table_lines[2:]:  # past the header and its --- row
        first = line.strip().strip("|").split("|")[0]
        for folder in re.findall(r"`([^`]+)`", first):
            rows.append((number, folder.strip().rstrip("/")))
    return start, rows


def layout_problems(name, text, folders, root, tracked):
    lines = text.splitlines()
    start, rows = layout_rows(lines)
    if start is None:
        return [f"{name}:1: no '## Layout' section with the table of folders"]
    if not rows:
        return [f"{name}:{start}: the '## Layout' section has no table of `folder/` rows"]
    problems = []
    listed = {folder for _, folder in rows}
    for number, folder in rows:
        # Without git, a dot folder (.ci/) is not required but may still be listed.
        exists = folder in folders or (not tracked and os.path.isdir(os.path.join(root, folder)))
        if not exists:
            problems.append(f"{name}:{number}: the layout table names `{folder}/`, which is not "
                            "a folder of the tree")
    broken_down = {f.rsplit("/", 1)[0] for f in listed if "/" in f}
    wanted = {f for f in folders if "/" not in f}
    wanted |= {f for f in folders if "/" in f and f.rsplit("/", 1)[0] in broken_down}
    for folder in sorted(wanted - listed):
        where = "a top-level folder" if "/" not in folder else \
            f"a folder of `{folder.rsplit('/', 1)[0]}/`, whose other folders it lists"
        problems.append(f"{name}:{start}: the layout table misses `{folder}/` ({where})")
    return problems


def check(root, use_git=True):
    problems, docs = [], []
    if os.path.isfile(os.path.join(root, "README.md")):
        docs.append("README.md")
    docs_dir = os.path.join(root, "docs")
    if os.path.isdir(docs_dir):
        docs += sorted("docs/" + f for f in os.listdir(docs_dir) if f.endswith(".md"))
    texts = {}
    for doc in docs:
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            texts[doc] = f.read()
        problems += duplicate_headings(doc, texts[doc])
    if "README.md" not in texts:
        problems.append("README.md:1: missing")
    else:
        folders, tracked = tracked_folders(root, use_git)
        problems += layout_problems("README.md", texts["README.md"], folders, root, tracked)
    return problems, len(docs)


def self_test():
    """Feeds the checks a small tree with known faults and one without; a check that cannot
    fail would pass the real tree too."""
    readme = """# Demo

## Layout

| folder | what |
| --- | --- |
| `core/` | the core |
| `core/model/` | models |
| `ui/` | the interface |
| `gone/` | a folder that was removed |

```sh
## Layout
# a comment, not a heading
```

## Usage

### Layout

Usage
-----
"""
    clean = """# Demo

## Layout

| folder | what |
| --- | --- |
| `core/` | the core |
| `core/model/` | models |
| `core/io/` | files |
| `ui/` | the interface |
| `docs/` | documents |
| `.hidden/` | a dot folder, listed though not required |

~~~
## Layout
~~~

## Usage

### Usage
"""
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for folder in ("core/model", "core/io", "ui", "docs", "build/core", ".hidden"):
            os.makedirs(os.path.join(root, folder))
            with open(os.path.join(root, folder, "f.txt"), "w", encoding="utf-8") as f:
                f.write("x\n")
        with open(os.path.join(root, "docs", "a.md"), "w", encoding="utf-8") as f:
            f.write("# A\n\n## Figures\n\ntext\n\n## Figures ##\n")

        def run(text):
            with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
                f.write(text)
            return check(root, use_git=False)[0]

        got = run(readme)
        expected = [
            "docs/a.md:7: heading '## Figures' appears again",
            "README.md:21: heading '## Usage' appears again",
            "README.md:10: the layout table names `gone/`",
            "README.md:3: the layout table misses `core/io/`",
            "README.md:3: the layout table misses `docs/`",
        ]
        for want in expected:
            if not any(p.startswith(want) for p in got):
                failures.append(f"not caught: {want}")
        if len(got) != len(expected):
            failures.append("problems other than the planted ones:\n  " + "\n  ".join(got))
        got = run(clean)
        # docs/a.md keeps its planted duplicate; nothing else may be reported.
        if [p for p in got if not p.startswith("docs/a.md:")]:
            failures.append("a clean README reported:\n  " + "\n  ".join(got))
    for failure in failures:
        print(f"check_docs: self-test: {failure}")
    return not failures


def main(argv):
    if argv not in ([], ["--self-test"]):
        print("usage: scripts/check_docs.py [--self-test]", file=sys.stderr)
        return 2
    if not self_test():
        return 1
    if argv == ["--self-test"]:
        print("check_docs: self-test passed")
        return 0
    problems, count = check(ROOT)
    for problem in problems:
        print(problem)
    print(f"check_docs: {count} documents and README's layout table (self-test passed), "
          f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
