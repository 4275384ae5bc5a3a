"""The application layer: every use case the edges (ui, pages, `dds`, the workshop) call, one module per group.

Each use case is a small function from a request (a frozen request type, or plain typed arguments where that
is all there is) to the domain's result type, delegating to `modeling/` and `costs/`: no logic lives here.
The types an edge needs to name are re-exported by the module of their use case (with `__all__`), so an edge
imports only `studio` (tests/test_layering.py holds it to that).

    studio.design          propose designs, check one, adopt one as the model's own
    studio.estimate        capacity and monthly cost; the quick calculators' units and prices
    studio.preview         sample data on the endpoint, every access pattern run and checked
    studio.hot_partitions  key populations and per-partition load against DynamoDB's limits
    studio.report          the cost-review report (built and rendered in studio.reports)
    studio.migration       the priced migration plan, and its rehearsal on the endpoint
    studio.interop         import (NoSQL Workbench, live table, SQL, query log) and export (IaC, Workbench)
                           (infrastructure as code sized and monitored in studio.iac)
    studio.load_test       a Locust or k6 load test following the traffic mix
    studio.examples        the built-in example models
    studio.model           the model file: documents, parsing, the summary
    studio.editing         the model editor's document operations (sections as rows, edits applied back)
    studio.workspace       the workspace: model files in a folder or a table, concurrent edits merged
    studio.errors          the domain errors the edges catch, and the problem types they show
    studio.commands        what the command lines share: the price refresh, the quiet exit
    studio.charts          the ui's figures (plotly): the domain's charts builders, re-exported

This package imports nothing until a module of it is imported, so an edge loads only the use cases it calls.
"""
