"""Workshop mode: guided lessons on the real pages, break-it exercises, shared models, isolated sessions.

A lesson (`lessons`) is content plus verification logic: steps that name a real page (Model, Layout,
Hot partitions, Capacity & cost) and a prepared model state (`states`), a question, and a reveal whose
numbers are computed live from `modeling` and `costs` (`reveals`). A break-it exercise introduces one
classic mistake into the lesson's model; `verification` checks the attendee's fix with the product's own
design checks, the planner, the hot-partition analysis and the cost engine, as named steps. `sharing`
packs a model into a link; `isolation` gives every browser session its own workspace in workshop mode.

Domain only: never imports streamlit (tests/test_layering.py).
"""
