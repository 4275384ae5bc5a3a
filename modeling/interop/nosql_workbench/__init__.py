"""NoSQL Workbench for Amazon DynamoDB model files: import (1.0, 2.0, 3.0) and export (3.0).

- `read_workbench` reads a file into frozen values, losslessly, unknown keys kept;
- `import_workbench` turns one of its tables into a Design Studio model, inferring entities, key
  templates and sample-data generators, and says what it inferred;
- `export_workbench` writes a model as a 3.0 file with seeded sample data; `workbench_document` writes
  a read file back as 3.0 (which also upgrades 1.0 and 2.0 files NoSQL Workbench no longer opens).
The mapping is documented in docs/nosql-workbench.md.
"""

from modeling.interop.nosql_workbench.document import WorkbenchFile, read_workbench, workbench_document
from modeling.interop.nosql_workbench.export import WorkbenchExport, export_workbench
from modeling.interop.nosql_workbench.infer import WorkbenchImport, import_workbench, import_workbench_file

__all__ = ["WorkbenchExport", "WorkbenchFile", "WorkbenchImport", "export_workbench", "import_workbench",
           "import_workbench_file", "read_workbench", "workbench_document"]
