"""Benchmark: memory a model keeps after the Capacity & cost page's work (issue 30, item 2).

Runs what the page runs (the design ranking's search, then the estimate of the first design) for one example,
then for `--links` hostile share links (ten entities, each with a 409,000-byte text generator; a link of ~300
characters), each a variant (another model, another sample draw). Prints the resident memory (VmRSS) each keeps
once done, and its ratio to what the example kept, so figures compare across machines. Before the fix a hostile
link kept ~780 MB (~180x what the student_platform example keeps) and each variant as much again; now ~4.5 MB,
the one copy of its texts (about what an example keeps).

Run: .venv/bin/python bench/sample_memory_bench.py [--links 10]
Not a test: figures depend on the allocator, so nothing here fails the suite (tests/pages/test_page_memory.py
holds the ceiling).
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from costs.design_ranking import propose  # noqa: E402
from costs.estimate import EstimateRequest  # noqa: E402
from modeling.examples import example_document  # noqa: E402
from modeling.model_file import model_from_document  # noqa: E402
from studio.estimate import estimate_model  # noqa: E402
from workshop.sharing import decode_share, encode_share  # noqa: E402

TEXT_BYTES = 409_000


def hostile_document(variant: int) -> dict[str, Any]:
    return {"format": "dynamodb-design-studio/model", "version": 1, "name": f"Hostile {variant}",
            "table": {"name": "hostile", "region": "eu-west-1"},
            "entities": [{"name": f"E{n}", "item_count": 1000 + variant, "identifiers": ["id"], "attributes": [
                {"name": "id", "generator": {"kind": "uuid"}},
                {"name": "blob", "generator": {"kind": "text", "length_bytes": TEXT_BYTES}}]} for n in range(10)]}


def resident_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(next(line for line in status if line.startswith("VmRSS:")).split()[1]) * 1024


def kept_bytes(document: dict[str, Any]) -> int:
    """Resident memory the page's work on `document` (opened as a share link) keeps once done."""
    before = resident_bytes()
    token = encode_share(document)
    assert token is not None
    model = model_from_document(decode_share(token), "share link")
    estimate_model(EstimateRequest(model, propose(model)[0].name))
    gc.collect()
    return resident_bytes() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=10)
    args = parser.parse_args()
    kept_bytes(example_document("chat_messages"))  # imports, price sheets and Faker's tables: paid once
    normal = max(1, kept_bytes(example_document("student_platform")))
    print(f"example (student_platform) keeps {normal / 1024**2:8.1f} MB  1.0x")
    total = 0
    for variant in range(args.links):
        kept = kept_bytes(hostile_document(variant))
        total += kept
        print(f"hostile link {variant:>2} keeps    {kept / 1024**2:8.1f} MB  {kept / normal:6.1f}x")
    print(f"{args.links} hostile links keep {total / 1024**2:8.1f} MB in all ({total / normal:.1f}x the example)")


if __name__ == "__main__":
    main()
