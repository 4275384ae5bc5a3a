"""The JSON Schema of the model file format, generated from the types in `modeling.model`.

Written to `docs/model.schema.json` (a test keeps it in step with the types) so that editors such as
VS Code can complete and check model files: put `# yaml-language-server: $schema=...` at the top of
a YAML model, or `"$schema"`-map the file in the editor's settings.
"""

from __future__ import annotations

from typing import Any

from modeling.model import FORMAT_VERSION, Model


def model_json_schema() -> dict[str, Any]:
    schema = Model.model_json_schema(mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema,
            "title": f"DynamoDB Design Studio model (format version {FORMAT_VERSION})"}
