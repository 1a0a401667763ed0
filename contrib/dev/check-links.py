#!/usr/bin/env python3
"""Checks the relative links of README.md and doc/*.md: every file or folder a link names exists, and
every #anchor names a heading of its Markdown file (GitHub's way of making anchors). Web addresses are
not fetched. One line per broken link, exit status 1 if there is any.

    python3 contrib/dev/check-links.py [FILE.md …]      (default: README.md doc/*.md)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text):
    """The lines outside fenced code blocks, with inline code removed, as (number, line)."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "", line)


def anchors(path):
    """GitHub's anchors for the headings of a Markdown file."""
    seen = {}
    result = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not re.match(r"#{1,6} ", line):
            continue
        title = line.lstrip("#").strip()
        title = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link keeps its text
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


def shown(path):
    """The path from the repository's root when it lies inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def check(path):
    problems = []
    for number, line in prose(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            where = f"{shown(path)}:{number}: {target}"
            if not resolved.exists():
                problems.append(f"{where}: no such file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                problems.append(f"{where}: no heading #{anchor} in {shown(resolved)}")
    return problems


def main(arguments):
    files = [Path(a).resolve() for a in arguments] or [ROOT / "README.md", *sorted((ROOT / "doc").glob("*.md"))]
    problems = [p for f in files for p in check(f)]
    for problem in problems:
        print(problem)
    links = sum(len(LINK.findall(l)) for f in files for _, l in prose(f.read_text(encoding="utf-8")))
    print(f"{len(files)} files, {links} links, {len(problems)} broken", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
