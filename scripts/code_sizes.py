"""Print the sizes the layout holds to, in lines of code (not blank, not a comment, not in a
docstring): modules over 600 lines of code, functions over 120, the trusted kernel's lines of
code, and the largest modules and functions.

    python scripts/code_sizes.py            # exit 1 when a module or a function is too long
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 120
ROOT = Path(__file__).resolve().parents[1] / "kt_formal"

_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
             tokenize.ENCODING, tokenize.ENDMARKER}


def _docstring_lines(tree: ast.AST) -> set[int]:
    """The lines of the docstrings of a module, its classes and functions."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_line_numbers(src: str, tree: ast.AST | None = None) -> set[int]:
    """The numbers of the lines of ``src`` that hold code: a token other than a comment, on a
    line outside every docstring (a multi-line string that is not a docstring is code).

    >>> sorted(code_line_numbers('def f():\\n    \"\"\"Doc.\\n\\n    More.\"\"\"\\n    # note\\n\\n    return 1\\n'))
    [1, 7]
    """
    tree = ast.parse(src) if tree is None else tree
    doc = _docstring_lines(tree)
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type not in _NOT_CODE:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines - doc


def code_lines(path: Path) -> int:
    """Lines of code of a module: not blank, not a comment, not in a docstring."""
    return len(code_line_numbers(path.read_text(encoding="utf-8")))


def sizes(root: Path = ROOT, *, top: int = 0):
    """(long modules, long functions, kernel code lines), each size in lines of code; with
    ``top``, also the ``top`` largest modules and functions: (..., largest modules, largest functions)."""
    long_modules, long_functions, kernel = [], [], 0
    modules, functions = [], []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        code = code_line_numbers(src, tree)
        modules.append((rel, len(code)))
        if len(code) > MAX_MODULE_LINES:
            long_modules.append((rel, len(code)))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = sum(1 for i in range(first, node.end_lineno + 1) if i in code)
                functions.append((f"{rel}:{node.name}", length))
                if length > MAX_FUNCTION_LINES:
                    long_functions.append((f"{rel}:{node.name}", length))
        if path.parent.name == "kernel":
            kernel += len(code)
    if not top:
        return long_modules, long_functions, kernel
    largest = lambda items: sorted(items, key=lambda x: -x[1])[:top]  # noqa: E731
    return long_modules, long_functions, kernel, largest(modules), largest(functions)


def main() -> int:
    long_modules, long_functions, kernel, modules, functions = sizes(top=5)
    print(f"modules over {MAX_MODULE_LINES} lines of code: {long_modules or 'none'}")
    print(f"functions over {MAX_FUNCTION_LINES} lines of code: {long_functions or 'none'}")
    print(f"kernel: {kernel} lines of code")
    print("largest modules: " + ", ".join(f"{m} {n}" for m, n in modules))
    print("largest functions: " + ", ".join(f"{f} {n}" for f, n in functions))
    return 1 if long_modules or long_functions else 0


if __name__ == "__main__":
    sys.exit(main())
