"""What the command lines share: the price refresh (`dds prices`), and the quiet end of a command line."""

from costs.price_refresh import main as refresh_prices
from modeling.cli_exit import run_cli

__all__ = ["refresh_prices", "run_cli"]
