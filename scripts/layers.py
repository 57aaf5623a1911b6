#!/usr/bin/env python3
"""The core's layers, checked: no module of sudokud-core imports one above it.

docs/architecture.md ("Layers") lists the core's top-level modules bottom first; each may name
only modules below it (and the model crate). The model below the core is a crate of its own, so
Cargo already refuses that cycle; inside the core this lint does it. It reads every path
`crate::<module>` outside comments and test code (items under `#[cfg(test)]`, and files only
test modules declare), and fails naming the file, the line and the two layers.

Usage: scripts/layers.py [CORE_SRC]   (default: crates/sudokud-core/src beside this script)
"""

import pathlib
import re
import sys

# Bottom first; modules on one line are one layer (they may not import each other either way
# without appearing in this order, so they are ordered too: the engines share nothing).
LAYERS = [
    "board",
    "rules",
    "verdict",
    "interrupt",
    "solver",
    "sizes",
    "variants",
    "search",
    "logic",
    "generate",
    "puzzle_id",
    "puzzle",
    "order",
]

CRATE_PATH = re.compile(r"\bcrate::(\w+)")
TEST_MODULE_FILE = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;")


def without_comments_and_strings(text):
    """The text with comments and string literals blanked, newlines kept (so lines still count)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    text = re.sub(r'r#+".*?"#+|"(?:\\.|[^"\\])*"', lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def without_test_items(text):
    """The text with every item under `#[cfg(test)]` blanked (to its closing brace or `;`)."""
    out = list(text)
    for match in re.finditer(r"#\[cfg\(test\)\]", text):
        depth, i = 0, match.end()
        while i < len(text):
            c = text[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            elif c == ";" and depth == 0:
                break
            i += 1
        for j in range(match.start(), min(i + 1, len(text))):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent / "crates/sudokud-core/src")
    rank = {name: i for i, name in enumerate(LAYERS)}
    files = sorted(src.rglob("*.rs"))
    test_files = set()
    for path in files:
        for name in TEST_MODULE_FILE.findall(without_comments_and_strings(path.read_text())):
            base = path.parent if path.name in ("mod.rs", "lib.rs") else path.parent / path.stem
            test_files.update({base / f"{name}.rs", base / name / "mod.rs"})
    top_levels = {path.relative_to(src).parts[0].removesuffix(".rs") for path in files} - {"lib"}
    unlisted = sorted(top_levels - rank.keys())
    if unlisted:
        sys.exit(f"layers.py: top-level modules missing from LAYERS (add them where they belong): {unlisted}")
    errors = []
    for path in files:
        module = path.relative_to(src).parts[0].removesuffix(".rs")
        if module == "lib" or path in test_files:
            continue
        code = without_test_items(without_comments_and_strings(path.read_text()))
        for number, line in enumerate(code.splitlines(), 1):
            for target in CRATE_PATH.findall(line):
                if target in rank and rank[target] > rank[module]:
                    errors.append(f"{path.relative_to(src)}:{number}: `{module}` imports `{target}`, a layer above it")
    for error in errors:
        print(error)
    if errors:
        sys.exit(f"layers.py: {len(errors)} import(s) against the order in docs/architecture.md")
    print(f"layers.py: {len(files) - len(test_files & set(files))} files, no module imports one above it")


if __name__ == "__main__":
    main()
