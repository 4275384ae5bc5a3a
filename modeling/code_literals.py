"""User text in a generated Python file: the one embedding rule (migration script, Locust file, request code).

A model's name, a description or an item value is free text. Pasted into a docstring or a comment, a `\"\"\"` or
a line break ends it and the rest runs as code when the file is run or imported. So a generated file holds user
text only as a string literal in an expression (`MODEL_NAME = 'Library'`), written by `python_literal`; what a
docstring or comment says is the product's own text. The other languages have their own literal: JSON for
JavaScript (a JSON text is an ECMAScript expression), `yaml.safe_dump` for CloudFormation, and
`modeling.interop.iac_terraform.hcl_string` for HCL. tests/test_generated_files_keep_user_text_as_data.py
checks every generator against text built to break out.

>>> print(python_literal('x\"\"\"; import os  # \\n'))
'x\"\"\"; import os  # \\n'
"""

from __future__ import annotations


def python_literal(text: str) -> str:
    """A Python string literal meaning exactly `text`, for an expression (never a docstring or a comment).

    `repr` escapes the quote, backslashes, line breaks (U+2028 and NEL too) and every other unprintable
    character (NUL, bidi controls), and keeps printable Unicode readable. `str()` first: a `StrEnum`'s repr
    is `<Kind.X: 'x'>`, which is not a literal.
    """
    return repr(str(text))
