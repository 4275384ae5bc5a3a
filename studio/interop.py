"""Import and export: models from NoSQL Workbench files, live tables, SQL schemas and query logs; the design
as infrastructure as code or a NoSQL Workbench file."""

from costs.infrastructure import InfrastructureExport, InfrastructureRequest, export_infrastructure
from costs.monitoring import MonitoringOptions
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

__all__ = ["DEFAULT_ITEMS_PER_ENTITY", "DEFAULT_SAMPLE_ITEMS", "LABELS", "MAX_ITEMS_PER_ENTITY", "MAX_SAMPLE_ITEMS",
           "IacFormat", "ImportRequest", "InfrastructureExport", "InfrastructureRequest", "LiveImport",
           "MonitoringOptions", "QueryImport", "RelationalImport", "SqlImport", "WorkbenchExport", "WorkbenchImport",
           "csv_text", "export_infrastructure", "export_workbench", "import_live_table", "import_queries",
           "import_relational", "import_sql", "import_workbench_file", "list_table_names", "parse_tags",
           "read_query_log", "read_workbench"]
