"""How cost figures read on screen and in downloads: one home for money, unit prices, quantities and shares.

Money totals are shown to the cent with thousands separators (`$1,482.04`); a unit price keeps every
significant digit the price sheet has, with its unit (`$0.00065 per WCU-hour`), never rounded into another
number; counts get thousands separators; shares are percentages. An amount that is not known is "not
available", never None, NaN or $0, and a partial total says what it leaves out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from costs.monthly import CostEstimate, OptionEstimate
from costs.pricing import PriceSheet, round_to_cent
from costs.usage import RESERVED_TERM_YEARS, label

NOT_AVAILABLE = "not available"
NO_UPFRONT = "no upfront fee"
_CENT = Decimal("0.01")  # a unit price shows at least the cents ($0.10, not $0.1)
_MAX_DECIMALS = 6  # a measured quantity (units/s, GiB) never shows float noise beyond this
# A price sheet's prices have at most 6 significant digits; a derived one (an upfront fee over 36 months,
# $43.80 / 36) has as many as Decimal's context gives (28): shown, it keeps 8 (issue 28.6)
_SIGNIFICANT_DIGITS = 8


def usd(value: Decimal | float | None) -> str:
    """A sum of money to the cent, with thousands separators; "not available" when it is unknown.

    >>> usd(Decimal("1482.044")), usd(Decimal("-5")), usd(Decimal("0.005")), usd(None)
    ('$1,482.04', '-$5.00', '$0.01', 'not available')
    """
    if value is None:
        return NOT_AVAILABLE
    cents = round_to_cent(Decimal(str(value)))
    return f"{'-' if cents < 0 else ''}${abs(cents):,.2f}"


def price(value: Decimal | None) -> str:
    """A unit price with every significant digit the sheet has (at least the cents).

    >>> price(Decimal("0.00065")), price(Decimal("0.000148")), price(Decimal("0.10")), price(Decimal("150"))
    ('$0.00065', '$0.000148', '$0.10', '$150.00')
    """
    if value is None:
        return NOT_AVAILABLE
    cents = value.quantize(_CENT)
    return f"${cents if cents == value else trimmed(value).normalize():,f}"


def unit_price(value: Decimal | None, unit: str) -> str:
    """A price with its unit: `$0.00065 per WCU-hour`, `$0.625 per 1,000,000 WRU`, or "not available".

    >>> unit_price(Decimal("0.00065"), "WCU-hour"), unit_price(None, "RCU-hour")
    ('$0.00065 per WCU-hour', 'not available')
    """
    return NOT_AVAILABLE if value is None else f"{price(value)} per {unit}"


def allowance(value: Decimal | None, unit: str) -> str:
    """A free-tier allowance: `25 GB-month free`, or "not available"."""
    return NOT_AVAILABLE if value is None else f"{exact(value)} {unit} free"


def trimmed(value: Decimal, digits: int = _SIGNIFICANT_DIGITS) -> Decimal:
    """At most `digits` significant digits, never fewer than the whole part has (money keeps its units).

    >>> [f"{trimmed(v):f}" for v in (Decimal("43.80") / 36, Decimal("0.0000001525"), Decimal("155985.791667"))]
    ['1.2166667', '0.0000001525', '155985.79']
    """
    decimals = max(digits, value.adjusted() + 1) - value.adjusted() - 1
    if value.is_zero() or -int(value.normalize().as_tuple().exponent) <= decimals:
        return value  # as written: 1,234.50 keeps its cents
    return value.quantize(Decimal(1).scaleb(-decimals)).normalize()


def exact(value: Decimal) -> str:
    """Every significant digit of a Decimal, thousands separators, no exponent: 2500000 -> `2,500,000`."""
    return f"{value.normalize():,f}"


def number(value: float | int | Decimal) -> str:
    """A count or a measured quantity: thousands separators, at most two decimals from 1 up, three
    significant digits below 1 (never more than six decimals).

    >>> [number(v) for v in (30.0, 2052, 106.94, 4.455025, 0.0072338, 0.0000001, Decimal("170.82"))]
    ['30', '2,052', '106.94', '4.46', '0.00723', '0', '170.82']
    """
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, Decimal):
        return exact(trimmed(value))
    small = 0 < abs(value) < 1  # three significant digits, at most six decimals
    text = f"{float(f'{value:.3g}'):.{_MAX_DECIMALS}f}" if small else f"{value:,.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(share: float) -> str:
    """A share of a whole (0-1) as a percentage: 0.17647 -> `17.6%`."""
    return f"{share * 100:.1f}%"


def cell(column: str, value: Any) -> str:
    """One table cell as text, by what its column holds: money (a name with USD), unit prices, shares, counts.

    >>> cell("monthly USD", None), cell("unit price USD", Decimal("0.00013")), cell("share of units", 0.25)
    ('not available', '$0.00013', '25.0%')
    """
    if value is None:
        return NOT_AVAILABLE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if "unit price" in column:
        return price(Decimal(str(value)))
    if "USD" in column:
        return usd(value)
    if column.startswith("share"):
        return percent(float(value))
    if isinstance(value, int | float | Decimal):
        return number(value)
    return str(value)


def text_rows(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Every cell of every row as text (`cell`): for Markdown and for table columns that lack a value."""
    return [{column: cell(column, value) for column, value in row.items()} for row in rows]


# --- the estimate's tables --------------------------------------------------------------------------


def missing_kinds(line_names: Iterable[str]) -> str:
    """What a partial total leaves out, by kind: `Storage, Point-in-time recovery` (the line names before
    their first comma, in order)."""
    return ", ".join(dict.fromkeys(name.split(",")[0].split("(")[0].strip() for name in line_names))


def option_total(option: OptionEstimate) -> str:
    """An option's monthly total: the amount, the priced part and what it excludes, or why there is none."""
    if option.unavailable_reason and not option.offered:
        return "not offered"
    if option.unavailable_reason or option.lacks_throughput_price:
        return NOT_AVAILABLE
    if option.missing_lines:
        return f"{usd(option.priced_subtotal_usd)} excluding {missing_kinds(option.missing_lines)}"
    return usd(option.monthly_total_usd)


def option_figure(option: OptionEstimate) -> tuple[str, str]:
    """A headline figure and its explanation, kept apart so the figure fits a metric: ("$173.01", "excludes
    Storage, Point-in-time recovery: no price in this Region"), ("not available", "no price for Reads, Writes")."""
    if option.unavailable_reason:
        return ("not offered" if not option.offered else NOT_AVAILABLE), option.unavailable_reason
    if option.lacks_throughput_price:
        return NOT_AVAILABLE, f"no price for {missing_kinds(option.missing_lines)} in this Region"
    if option.missing_lines:
        return (usd(option.priced_subtotal_usd),
                f"excludes {missing_kinds(option.missing_lines)}: no price in this Region")
    return usd(option.monthly_total_usd), ""


def option_upfront(option: OptionEstimate) -> str:
    """The upfront fee: reserved capacity's, "not available" when its price is missing, none for the rest."""
    if option.option not in RESERVED_TERM_YEARS:
        return NO_UPFRONT
    if option.unavailable_reason and not option.offered:
        return "not offered"
    return NOT_AVAILABLE if option.unavailable_reason else usd(option.upfront_usd)


def option_display_rows(estimate: CostEstimate) -> list[dict[str, str]]:
    """The Options table as text: every cell says an amount or why there is none."""
    return [{"option": label(o.option), "table class": label(o.table_class), "monthly USD": option_total(o),
             "upfront USD": option_upfront(o),
             "note": (o.status if o.monthly_total_usd is None or not o.serves_peak else
                      ("some prices are assumptions" if o.has_assumptions else ""))}
            for o in estimate.options]


def price_display_rows(sheet: PriceSheet) -> list[dict[str, Any]]:
    """Every price of the sheet as the sheet has it, with its unit (free-tier allowances as allowances)."""
    return [{"price": p.item.value, "table class": p.table_class.value if p.table_class else "",
             "unit price": (allowance if p.item.value.startswith("free_tier") else unit_price)(p.value, p.unit_label),
             "confidence": p.confidence.value, "assumption": p.is_assumption, "source": p.source, "note": p.note}
            for p in sheet.prices]
