"""The built-in example models: the list, and one as a document (to open) or as a model (to price)."""

from modeling.examples import Example, example_document, list_examples, load_example

__all__ = ["Example", "example_document", "list_examples", "load_example"]
