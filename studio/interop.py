"""Import and export: models from NoSQL Workbench files, live tables, SQL schemas and query logs; the design
as infrastructure as code or a NoSQL Workbench file."""

from dataclasses import dataclass

from costs.errors import CostError
from modeling.errors import ModelingError
from modeling.interop.infrastructure import LABELS, IacFormat, parse_tags
from modeling.interop.live_import import (
    DEFAULT_SAMPLE_ITEMS,
    MAX_SAMPLE_ITEMS,
    ImportRequest,
    LiveImport,
    import_live_table,
    list_table_names,
)
from modeling.interop.nosql_workbench import (
    WorkbenchExport,
    WorkbenchImport,
    export_workbench,
    import_workbench_file,
    read_workbench,
)
from modeling.interop.nosql_workbench.export import DEFAULT_ITEMS_PER_ENTITY, MAX_ITEMS_PER_ENTITY
from modeling.interop.query_import import QueryImport, import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.relational_import import RelationalImport, import_relational
from modeling.interop.spreadsheet import csv_text
from modeling.interop.sql_import import SqlImport, import_sql
from modeling.memo import ContentMemo, content_key
from modeling.model import Model
from modeling.model_file import FileFormat, dump_document
from studio.design import propose
from studio.iac.infrastructure import InfrastructureExport, InfrastructureRequest, export_infrastructure
from studio.iac.monitoring import MonitoringOptions

__all__ = ["DEFAULT_ITEMS_PER_ENTITY", "DEFAULT_SAMPLE_ITEMS", "LABELS", "MAX_ITEMS_PER_ENTITY", "MAX_SAMPLE_ITEMS",
           "IacFormat", "ImportRequest", "InfrastructureExport", "InfrastructureRequest", "LiveImport",
           "MonitoringOptions", "QueryImport", "RelationalImport", "SqlImport", "WorkbenchDownload", "WorkbenchExport",
           "WorkbenchImport",
           "csv_text", "export_infrastructure", "export_workbench", "import_live_table", "import_queries",
           "import_relational", "import_sql", "import_workbench_file", "list_table_names", "parse_tags",
           "read_query_log", "read_workbench",
           "remembered_workbench_download", "workbench_download"]


@dataclass(frozen=True)
class WorkbenchDownload:
    """A model as a NoSQL Workbench 3.0 file: its text and what the format could not hold, or why it could not
    be built (`error`, then no text)."""

    text: str
    notes: tuple[str, ...]
    error: str = ""


_DOWNLOADS: ContentMemo[WorkbenchDownload] = ContentMemo("NoSQL Workbench files", max_entries=8,
                                                          max_bytes=32_000_000, weigh=lambda d: len(d.text))


def _download_key(model: Model, seed: int, items_per_entity: int) -> str:
    return content_key(model.model_dump_json(), str(seed), str(items_per_entity))


def workbench_download(model: Model, seed: int, items_per_entity: int) -> WorkbenchDownload:
    """The model as a NoSQL Workbench file keyed by the design every page shows first (`propose`'s first, as
    `dds export workbench` does), with seeded sample data; remembered by content. The design search runs here,
    so the Model page builds the file when it is asked for, never on every edit."""
    def build() -> WorkbenchDownload:
        try:
            exported = export_workbench(model, seed=seed, items_per_entity=items_per_entity,
                                        design=next(iter(propose(model)), None))
        except (ModelingError, CostError) as exc:
            return WorkbenchDownload("", (), str(exc))
        return WorkbenchDownload(dump_document(exported.document, FileFormat.JSON), exported.notes)

    return _DOWNLOADS.get(_download_key(model, seed, items_per_entity), build)


def remembered_workbench_download(model: Model, seed: int, items_per_entity: int) -> WorkbenchDownload | None:
    """The file `workbench_download` built for these inputs, if it did; nothing is built here."""
    return _DOWNLOADS.peek(_download_key(model, seed, items_per_entity))
