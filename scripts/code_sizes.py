"""Print the sizes the layout holds to: modules over 600 lines, functions over 120 lines,
and the trusted kernel's lines of code (without docstrings, comments and blank lines).

    python scripts/code_sizes.py            # exit 1 when a module or a function is too long
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 120
ROOT = Path(__file__).resolve().parents[1] / "kt_formal"


def code_lines(path: Path) -> int:
    """Lines of code of a module: not blank, not a comment, not in a docstring."""
    src = path.read_text(encoding="utf-8")
    doc = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                doc.update(range(first.lineno, first.end_lineno + 1))
    return sum(1 for i, line in enumerate(src.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and i not in doc)


def sizes(root: Path = ROOT):
    """(long modules, long functions, kernel code lines)."""
    long_modules, long_functions, kernel = [], [], 0
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES:
            long_modules.append((rel, n))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long_functions.append((f"{rel}:{node.name}", length))
        if path.parent.name == "kernel":
            kernel += code_lines(path)
    return long_modules, long_functions, kernel


def main() -> int:
    long_modules, long_functions, kernel = sizes()
    print(f"modules over {MAX_MODULE_LINES} lines: {long_modules or 'none'}")
    print(f"functions over {MAX_FUNCTION_LINES} lines: {long_functions or 'none'}")
    print(f"kernel: {kernel} lines of code")
    return 1 if long_modules or long_functions else 0


if __name__ == "__main__":
    sys.exit(main())
