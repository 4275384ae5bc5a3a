"""Import and export: models from NoSQL Workbench files, live tables, SQL schemas and query logs; the design
as infrastructure as code or a NoSQL Workbench file."""

from costs.infrastructure import InfrastructureExport, InfrastructureRequest, export_infrastructure
from modeling.interop.live_import import ImportRequest, LiveImport, import_live_table, list_table_names
from modeling.interop.nosql_workbench import WorkbenchExport, WorkbenchImport, export_workbench, import_workbench_file
from modeling.interop.query_import import QueryImport, import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.sql_import import SqlImport, import_sql

__all__ = ["ImportRequest", "InfrastructureExport", "InfrastructureRequest", "LiveImport", "QueryImport", "SqlImport",
           "WorkbenchExport", "WorkbenchImport", "export_infrastructure", "export_workbench", "import_live_table",
           "import_queries", "import_sql", "import_workbench_file", "list_table_names", "read_query_log"]
