"""What the product reads from and writes to other tools: NoSQL Workbench files (`nosql_workbench/`), live
tables (`live_import`, `live_inference`), infrastructure as code and alarms (`iac_request`, the one
CreateTable builder, `iac_cloudformation`, `iac_terraform`, `iac_alarms`, `infrastructure`), relational
schemas and query logs (`sql_*`, `query_*`, `relational_import`) and spreadsheet-safe CSV (`spreadsheet`)."""
