#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the #include "..." lines of the tree against the arrows of docs/ARCHITECTURE.md.

Each folder is a floor of the design (docs/ARCHITECTURE.md draws them). A file may include a file
of its own folder, or of a folder an allowed arrow points to; any other include fails the check.
The arrows are read from the fenced block marked `layers` in that document, so the drawing, the
list and this check cannot drift apart:

    ui/views -> core, ui/document     a folder and the folders it may include
    tests/ui* -> core*, ui/*          `*` matches any rest of a path (subfolders too)
    core/a.cpp -> core/model/b.h      one file's exception

The allowed arrows must form no cycle between folders: a floor never includes one above it.
The command line (app/cli*) must reach no widget header through any chain of project includes:
not qcustomplot.h, not a header of Qt's Widgets module.
Exit status 0 when every include is allowed, 1 otherwise (each offending line is printed).
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
HEADLESS = "app/cli*"
WIDGETS_DIRS = glob.glob("/usr/include/*/qt6/QtWidgets") + glob.glob("/usr/include/qt6/QtWidgets")


def read_arrows(path):
    arrows, inside = [], False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                inside = line.strip() == "```layers"
                continue
            line = line.split("#", 1)[0].strip()
            if not inside or not line:
                continue
            if "->" not in line:
                sys.exit(f"{path}:{number}: expected 'FROM -> TO, TO...': {line}")
            source, targets = line.split("->", 1)
            for target in targets.split(","):
                arrows.append((source.strip(), target.strip(), number))
    if not arrows:
        sys.exit(f"{path}: no ```layers block with arrows")
    return arrows


def sources():
    try:
        out = subprocess.run(["git", "ls-files", "*.cpp", "*.h"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(("build", "."))]
            found += [os.path.relpath(os.path.join(top, f), ROOT) for f in files
                      if f.endswith((".cpp", ".h"))]
        return found


def resolve(source, name):
    """The tree path an include names: looked up beside the file, then in each folder above it
    (the tests' support folders), then from the root, as the compiler's include paths do."""
    folder = os.path.dirname(source)
    while True:
        candidate = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
        if not folder:
            return None
        folder = os.path.dirname(folder)


def matches(pattern, path):
    """A file pattern (ending in .h or .cpp) names files; any other pattern names folders."""
    if pattern.endswith((".h", ".cpp")):
        return fnmatch.fnmatchcase(path, pattern)
    return fnmatch.fnmatchcase(os.path.dirname(path), pattern)


def folder_cycle(arrows, folders):
    """A cycle among the folders the arrows connect, or None."""
    edges = {a: {b for b in folders if b != a and any(
        fnmatch.fnmatchcase(a, s) and fnmatch.fnmatchcase(b, t) for s, t, _ in arrows)}
        for a in folders}
    state, stack = {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(folders):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def widget_header(name):
    if name == "qcustomplot.h" or name.startswith("QtWidgets/"):
        return True
    return any(os.path.isfile(os.path.join(d, name)) for d in WIDGETS_DIRS)


def widget_chain(source, seen):
    """A chain of includes from `source` to a widget header, or None."""
    seen.add(source)
    with open(os.path.join(ROOT, source), encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for line in lines:
        m = SYSTEM_INCLUDE.match(line)
        if m and widget_header(m.group(1)):
            return [source, "<" + m.group(1) + ">"]
    for line in lines:
        m = INCLUDE.match(line)
        target = resolve(source, m.group(1)) if m else None
        if target and target not in seen:
            found = widget_chain(target, seen)
            if found:
                return [source] + found
    return None


def main():
    arrows = read_arrows(DOC)
    files = sources()
    folders = {os.path.dirname(f) for f in files}
    cycle = folder_cycle(arrows, folders)
    if cycle:
        print("check_layers: the arrows of docs/ARCHITECTURE.md form a cycle: " +
              " -> ".join(cycle))
        return 1
    bad, used, checked = [], set(), 0
    for source in sorted(files):
        with open(os.path.join(ROOT, source), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(source, m.group(1))
                if target is None or os.path.dirname(target) == os.path.dirname(source):
                    continue
                checked += 1
                allowed = [n for s, t, n in arrows if matches(s, source) and matches(t, target)]
                if allowed:
                    used.update(allowed)
                else:
                    bad.append(f"{source}:{number}: {os.path.dirname(source) or '.'} may not "
                               f"include {target}")
    for source in sorted(f for f in files if fnmatch.fnmatchcase(f, HEADLESS)):
        chain = widget_chain(source, set())
        if chain:
            bad.append(f"{source}: the command line reaches a widget header: " +
                       " -> ".join(chain))
    for line in bad:
        print(line)
    unused = sorted({n for _, _, n in arrows} - used)
    if unused:
        print("check_layers: arrows no include uses (docs/ARCHITECTURE.md lines " +
              ", ".join(map(str, unused)) + ")")
    print(f"check_layers: {checked} includes across folders in {len(files)} files, "
          f"{len(bad)} not allowed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
