"""DynamoDB Design Studio's cost engine: capacity units, prices and monthly estimates.

What it costs: `item_size` measures items as DynamoDB does, `units` turns one request into capacity
units, `usage` holds what a table consumes (`TableUsage`), `autoscaling` simulates provisioned capacity
minute by minute, `pricing` loads dated price sheets (`price_sheets/`), and `monthly` prices every
capacity option and table class as line items with a recommendation; `estimate` prices a given design whole (the
search that chooses it runs in `studio.estimate`). `search_pricing` prices layouts for
the key-design search (`modeling.design.search`, which receives it from `studio.design`), `design_cost` prices
one design and `design_ranking` ranks the search's finalists by their monthly cost; `preview_units` gives the
preview (`modeling.preview.measured`) the units a request consumed and the model's estimate of them, and
`migration_prices` prices a migration's steps (`modeling.migration.pricing`). Money is `Decimal` USD and a
month is 730 hours. Every rule and price cites `docs/dynamodb-rules.md` by section. What only uses these
figures lives in the application layer: the cost-review report (`studio.reports`) and the infrastructure as
code sized by the estimate, with its alarms and dashboard (`studio.iac`).

Vocabulary follows the glossary in `modeling/__init__.py` and the README: RCU / WCU are provisioned
capacity units, RRU / WRU on-demand request units; numeric names carry units (`item_size_bytes`,
`monthly_cost_usd`). This package may import `modeling`, never streamlit; plotly only in `charts.py`.
"""
