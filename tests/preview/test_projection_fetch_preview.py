"""Issue 28.3 on the moto server: a GSI whose projection was chosen by cost is created with that projection, and a
pattern whose plan fetches the base items after the index query performs the fetch and passes the oracle."""

from __future__ import annotations

from decimal import Decimal

from costs.design_ranking import propose
from modeling.endpoint.adapter import Endpoint, dynamodb_client
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.preview import PreviewRun, run_preview
from tests.costs.test_projection_choice import audit_model


def test_the_keys_only_index_is_created_and_the_fetching_listing_passes_the_oracle(endpoint: Endpoint) -> None:
    model = audit_model("write")
    design = propose(model)[0]
    setup = preview_setup(model, design, endpoint, "projections", "audit", 120, 7)
    try:
        data, _ = load_preview(setup)
        table = dynamodb_client(endpoint).describe_table(TableName=setup.table.name)["Table"]
        assert [i["Projection"]["ProjectionType"] for i in table["GlobalSecondaryIndexes"]] == ["KEYS_ONLY"]
        report = run_preview(PreviewRun(setup, data))
    finally:
        cleanup_preview(setup)
    listing = next(r for r in report.results if r.run.pattern == "list_events_by_device")
    assert listing.run.passed, listing.run.verdict
    assert listing.run.returned_count > 0 and len(listing.run.fetched) == listing.run.returned_count
    assert all("payload" in item for item in listing.run.returned)  # whole items, from the table
    # measured on the real items (§1.2): the BatchGetItem rounds each fetched item of ~5.1 KB to 8 KB, 1 RRU each
    assert listing.capacity.measured.read_units >= Decimal(len(listing.run.fetched))
    assert report.failed == ()
