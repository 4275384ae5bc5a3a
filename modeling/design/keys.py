"""The key grammar's old address: it lives in the core, `modeling.key_templates`, so that the model,
validation and write semantics can use it without importing `modeling.design` (tests/test_layering.py).
Every public name stays importable from here.
"""

from __future__ import annotations

from modeling.key_templates import (
    ATTRIBUTE_NAME_PATTERN as ATTRIBUTE_NAME_PATTERN,
)
from modeling.key_templates import (
    HIGH as HIGH,
)
from modeling.key_templates import (
    KEY_SEPARATOR as KEY_SEPARATOR,
)
from modeling.key_templates import (
    LABEL_SEPARATORS as LABEL_SEPARATORS,
)
from modeling.key_templates import (
    MAX_NUMBER_TEXT_BYTES as MAX_NUMBER_TEXT_BYTES,
)
from modeling.key_templates import (
    VALUE as VALUE,
)
from modeling.key_templates import (
    KeyTemplate as KeyTemplate,
)
from modeling.key_templates import (
    KeyTemplateError as KeyTemplateError,
)
from modeling.key_templates import (
    Segment as Segment,
)
from modeling.key_templates import (
    is_constant_word as is_constant_word,
)
from modeling.key_templates import (
    is_label as is_label,
)
from modeling.key_templates import (
    key_range as key_range,
)
from modeling.key_templates import (
    key_shape as key_shape,
)
from modeling.key_templates import (
    missing_key_attributes as missing_key_attributes,
)
from modeling.key_templates import (
    render_key as render_key,
)
from modeling.key_templates import (
    render_segments as render_segments,
)
from modeling.key_templates import (
    render_value as render_value,
)
from modeling.key_templates import (
    repeated_constants as repeated_constants,
)
from modeling.key_templates import (
    split_key_value as split_key_value,
)
