"""The typed errors the cost engine raises for bad input.

Every message has one shape: what is wrong, then `field=value`, then a hint, e.g.
`unknown attribute type, field=item.title, value='STRING'; use one of S, N, B, ...`.
Pages and the command line catch `CostError` (a `ValueError`) at their edge; anything else is a bug.
"""

from __future__ import annotations


class CostError(ValueError):
    """Base class of the errors `costs` raises for bad input."""

    def __init__(self, what: str, field: str, value: object, hint: str = "") -> None:
        self.what, self.field, self.value, self.hint = what, field, value, hint
        text = f"{what}, field={field}, value={value!r}"
        super().__init__(f"{text}; {hint}" if hint else text)


class ItemFormatError(CostError):
    """An item is not valid DynamoDB JSON (`{"attr": {"S": "x"}}`)."""


class RequestShapeError(CostError):
    """A request breaks a rule of its operation (too many items, a strong read on a GSI, a negative size)."""


class PriceSheetError(CostError):
    """A price sheet is missing, malformed, or lacks a price the engine needs."""


class UsageError(CostError):
    """Usage or estimate options are out of range (24 hourly values, non-negative rates, known options)."""


class ScalingPolicyError(CostError):
    """An auto scaling policy is out of AWS's range (target 20-90 %, minimum at least 1 unit)."""


class ModelInputError(CostError):
    """A model file given to the cost engine does not load; the hint carries its problems."""


class UnknownDesignError(CostError):
    """The design asked for is not among the model's candidates."""


class NoDesignError(CostError):
    """The model has no design at all (no entities yet), so nothing can be sized, priced or exported."""


class NoSafeDesignError(NoDesignError):
    """Every candidate layout has an error-severity finding (wrong results, a Scan, ...): none is offered."""


class PriceListError(CostError):
    """AWS's Price List cannot be read or used (an unknown Region, a malformed offer file or answer, an API
    error, no credentials). The message is one plain line, what is wrong and how to fix it; the sheets in use
    are left as they were."""

    def __init__(self, message: str) -> None:
        self.what, self.field, self.value, self.hint = message, "price list", None, ""
        ValueError.__init__(self, message)
