"""The key design: the key grammar (`keys`), the plan types (`plans`), the planner and the generator's candidate
layouts (`planner`, `design_space`, `generator`), the cost-based search over them with the pricing it is given
(`search`, its `SearchPricing`) and the one answer to "what design?" (`proposal`), items read from collection
sizes (`items_read`, `collection_sizes`), item sizes and capacity units per plan (`sizing`, `plan_units`), the
layout view (`layout`), the design report and the model at a glance (`design_report`, `summary`) and the design
checks (`checks/`)."""
