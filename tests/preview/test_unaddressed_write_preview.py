"""DDS312 in the Preview (issue 27.3): a write whose inputs cannot name its item is not sent and not shown
as passing, even though the preview could take the key from a stored item; the table is left as loaded."""

from __future__ import annotations

import itertools

from modeling.design.generator import explicit_design
from modeling.preview.runner import RunContext, run_pattern
from modeling.preview.session import load_preview, preview_setup
from tests.modeling.test_write_addressing import library

_tables = itertools.count()


def test_an_update_by_copy_id_alone_is_not_sent_and_fails_naming_the_missing_key(endpoint, client) -> None:
    model = library()
    setup = preview_setup(model, explicit_design(model), endpoint, f"addr{next(_tables)}", "library", 50, 42)
    data, _ = load_preview(setup)
    before = client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"]
    run = run_pattern(client, RunContext(setup.model, setup.design, data, setup.table.name, setup.seed),
                      "update_copy_status_by_id")
    assert not run.passed and run.request is None and run.writes == ()
    assert "isbn, branchId" in run.verdict and "DDS312" in run.verdict
    assert client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"] == before
    # with the whole key among the inputs the same update is sent and passes
    fixed = library(inputs=["isbn", "branchId", "copyId"])
    setup = preview_setup(fixed, explicit_design(fixed), endpoint, f"addr{next(_tables)}", "library", 50, 42)
    data, _ = load_preview(setup)
    run = run_pattern(client, RunContext(setup.model, setup.design, data, setup.table.name, setup.seed),
                      "update_copy_status_by_id")
    assert run.passed, run.verdict
