"""Sample data: seeded items for a model (`sample_data`), the value generators behind them
(`value_generators`), and data files read at run time (`reserved_words.txt`, see README.md)."""
