"""The model and its file: the types an edge names, a document read, validated and written, the model at a glance;
the content key a model's results are cached under, and user text made safe to show as Markdown."""

from modeling.design.summary import DocumentSummary, document_summary
from modeling.markdown import markdown_literal
from modeling.memo import content_key
from modeling.model import (
    GENERATOR_KINDS,
    AttributeType,
    AuxiliaryKind,
    BillingMode,
    ComparisonOperator,
    ConditionKind,
    Consistency,
    FakerProvider,
    KeyDesign,
    Model,
    PatternKind,
    ProjectionType,
    RangeOperator,
    RelationshipKind,
    SortOrder,
    StreamViewType,
    TableClass,
    TimestampFormat,
    TrafficShape,
    TransactAction,
    UpdateAction,
)
from modeling.model_file import (
    MAX_FILE_BYTES,
    FileFormat,
    document_problems,
    dump_document,
    model_from_document,
    model_to_document,
    parse_document,
    refuse_oversized,
)

__all__ = ["GENERATOR_KINDS", "MAX_FILE_BYTES", "AttributeType", "AuxiliaryKind", "BillingMode", "ComparisonOperator",
           "ConditionKind", "Consistency", "DocumentSummary", "FakerProvider", "FileFormat", "KeyDesign", "Model",
           "PatternKind", "ProjectionType", "RangeOperator", "RelationshipKind", "SortOrder", "StreamViewType",
           "TableClass", "TimestampFormat", "TrafficShape", "TransactAction", "UpdateAction", "content_key",
           "document_problems", "document_summary", "dump_document", "markdown_literal", "model_from_document",
           "model_to_document", "parse_document", "refuse_oversized"]
