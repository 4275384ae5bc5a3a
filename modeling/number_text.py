"""Numbers in messages people read: thousands separators and a sensible precision, never float noise.

One home for it: the design checks, the planner's reasons and the hot-partition findings all say "0.4 index
writes", not "0.399999", "1e-06" or "2.2800000000000002".
"""

from __future__ import annotations

_SMALLEST = 0.001


def number(value: float) -> str:
    """A number for messages: 58,500 / 12.5 / 1.03 / 0.25 / 0.4 (whole above 100, three significant digits
    from 1, two below; "< 0.001" for what those would print in exponent form).

    >>> [number(x) for x in (58_500, 12.5, 1.03, 0.25, 0.399999, 2.2800000000000002, 0.000001, 0, -0.0000004)]
    ['58,500', '12.5', '1.03', '0.25', '0.4', '2.28', '< 0.001', '0', '> -0.001']
    """
    if 0 < abs(value) < _SMALLEST:
        return f"< {_SMALLEST}" if value > 0 else f"> -{_SMALLEST}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.3g}"
    return f"{value:.2g}"
