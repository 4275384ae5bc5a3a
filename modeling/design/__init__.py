"""The key design: the key grammar (`keys`), the plan types (`plans`), the planner and the generator's search
over layouts (`planner`, `design_space`, `generator`), items read from collection sizes (`items_read`,
`collection_sizes`), item sizes and capacity units per plan (`sizing`, `plan_units`), the layout view
(`layout`), the design report and the model at a glance (`design_report`, `summary`) and the design checks
(`checks/`)."""
