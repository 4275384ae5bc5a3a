"""Sample values drawn with cumulative weights (`sample_data._with_cumulative_weights`) equal Faker's own."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from faker import Faker

from modeling.data import sample_data
from modeling.examples import list_examples, load_example
from modeling.model import FakerGenerator, FakerProvider


def _values(faker: Faker, provider: FakerProvider, seed: int, count: int = 60) -> list[object]:
    faker.seed_instance(seed)
    return sample_data._faker_values(FakerGenerator(kind="faker", provider=provider), count, None, faker)  # type: ignore[arg-type]


@pytest.mark.parametrize("provider", list(FakerProvider))
def test_every_provider_draws_the_values_a_plain_faker_draws(provider: FakerProvider) -> None:
    fast, plain = sample_data._with_cumulative_weights(Faker()), Faker()
    for seed in (0, 42, 2**40 + 7):
        assert _values(fast, provider, seed) == _values(plain, provider, seed)


def test_text_and_unweighted_draws_are_unchanged() -> None:
    fast, plain = sample_data._with_cumulative_weights(Faker()), Faker()
    for faker in (fast, plain):
        faker.seed_instance(7)
    draws = [(f.text(max_nb_chars=200), f.random_elements(OrderedDict([("a", 0.9), ("b", 0.1)])),
              f.random_elements(OrderedDict([("a", 0.9), ("b", 0.1)]), length=2, unique=True),
              f.random_elements(["x", "y", "z"], length=4)) for f in (fast, plain)]
    assert draws[0] == draws[1]


def test_a_weighted_draw_uses_the_cached_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path is taken (else the test above proves nothing about it): Faker's own is not called."""
    fast = sample_data._with_cumulative_weights(Faker())
    fast.seed_instance(1)
    fast.last_name()
    monkeypatch.setattr(sample_data.BaseProvider, "random_elements",
                        lambda *a, **k: pytest.fail("Faker's own weighted draw was used"))
    fast.last_name()


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_every_example_draws_the_same_items_as_with_a_plain_faker(slug: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_example(slug)
    fast = sample_data.generate_items(model, 200, 42)
    monkeypatch.setattr(sample_data, "_with_cumulative_weights", lambda faker: faker)
    assert fast == sample_data.generate_items(model, 200, 42)
