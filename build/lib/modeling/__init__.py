"""DynamoDB Design Studio's domain: what a design is and how it behaves.

Glossary (used everywhere in code, UI and docs):

- **entity**: a kind of item the application stores (Customer, Order). Several entities may share
  one table (single-table design).
- **attribute**: a named, typed value of an entity (`email`, type `S`).
- **access pattern**: one request the application makes, named `verb_object_by_key`
  (`list_orders_by_customer`), with its traffic in requests per second.
- **relationship**: one-to-one, one-to-many or many-to-many between two entities, with a
  cardinality (orders per customer).
- **partition key / sort key**: the two parts of the primary key. AWS's `HASH`/`RANGE` words
  appear only in the endpoint module that builds requests.
- **key template**: how a key value is built from attributes, e.g. `CUSTOMER#{customerId}`.
- **GSI / LSI**: global / local secondary index. A logical index (what a pattern needs) maps onto a
  physical one (`GSI1` with key attributes `GSI1PK`, `GSI1SK`).
- **item collection**: all items that share one partition key value.
- **RCU / WCU**: read / write capacity units (provisioned mode). **RRU / WRU**: read / write
  request units (on-demand mode).

Numeric names carry their unit: `item_size_bytes`, `peak_requests_per_second`.
This package never imports streamlit; plotly appears only in `charts.py`.
"""
