"""The Preview page after an interrupted load and a resume: it shows what the table really holds (counted),
the shortfall in plain view (not in a tooltip), and the requests of every attempt. The endpoint is the
embedded moto server behind the fault-injecting proxy (tests/fault_proxy.py), over real HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from tests.fault_proxy import FaultPlan, FaultProxy
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch):
    proxy = FaultProxy(configured_endpoint({}).url).start()
    monkeypatch.setenv("DESIGN_STUDIO_ENDPOINT", proxy.url)
    yield proxy
    proxy.stop()


def _button(at: AppTest, key: str):
    return next(b for b in at.button if b.key == key)


def test_after_a_resume_the_page_shows_the_counted_items_and_the_shortfall(proxy: FaultProxy) -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()
    at.number_input(key=scoped(at, "preview.items")).set_value(500).run()
    # every BatchWriteItem attempt after the first four answers 500: the load stops part-way, whatever the
    # items (a seeded 97% share let a batch through or not depending on the design's key bytes)
    proxy.use(FaultPlan(seed=5, error500=1.0, targets=("BatchWriteItem",), pass_first=4))
    _button(at, "preview.load").click().run()
    assert not at.exception, at.exception
    assert any("press Resume loading" in e.value for e in at.error), [e.value for e in at.error]
    table = next(c.value for c in at.caption if "Table `" in c.value).split("`")[1]
    moto = dynamodb_client(configured_endpoint({}))
    written = moto.scan(TableName=table, Limit=3)["Items"]
    assert written, "the first batches went through"
    key_names = [k["AttributeName"] for k in moto.describe_table(TableName=table)["Table"]["KeySchema"]]
    for item in written:  # meanwhile something deletes three of the items already written
        moto.delete_item(TableName=table, Key={k: item[k] for k in key_names})
    proxy.use(FaultPlan())
    resume = _button(at, "preview.load")
    assert resume.label == "Resume loading"
    resume.click().run()
    assert not at.exception, at.exception
    counted = next(m for m in at.metric if m.label == "Items in the table")
    held = moto.scan(TableName=table, Select="COUNT")["Count"]
    assert int(counted.value.replace(",", "")) == held
    shortfall = next(w.value for w in at.warning if "fewer than the" in w.value)
    assert f"holds {held:,} items: 3 fewer than the" in shortfall
    caption = next(c.value for c in at.caption if "BatchWriteItem requests" in c.value)
    requests = int(caption.split(" BatchWriteItem requests")[0].rsplit(" ", 1)[1].replace(",", ""))
    # every attempt is counted: the failed ones of the first load (botocore retried each 500) and the resume's
    assert requests == proxy.requests["BatchWriteItem"] and "over 2 attempts" in caption
