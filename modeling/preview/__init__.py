"""Local preview: a design made real on a DynamoDB endpoint.

- `dataset`: the seeded preview items (with their table and index keys) and their DynamoDB JSON;
- `tables`: the preview table's name, creation, ownership tags and cleanup (never a foreign table);
- `loader`: BatchWriteItem loading with retries, progress and a resumable state;
- `requests`: each access pattern turned into the exact request a developer would send;
- `code`: that request as boto3 Python, AWS CLI and JavaScript SDK v3 code;
- `oracle`: the answer each read pattern should give, computed from the items in Python;
- `runner`: executes the requests, checks them against the oracle and checks the effect of writes;
- `run`: the preview run, every chosen pattern executed with its code forms and the capacity it consumed;
- `measured`: that capacity, measured from the data beside the model's estimate (the cost engine's units come
  in as `CapacityRules`, passed by `studio.preview`).
"""
