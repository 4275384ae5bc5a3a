"""The cost-review report, composed here from the engines' results: `review_report` builds it from the
estimate, the design checks and the hot-partition analysis; `review_render` writes it as Markdown or HTML.
The edges call `studio.report`."""
