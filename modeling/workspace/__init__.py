"""Where models are saved: one interface (`store`) with two implementations, a folder (`folder`, the default)
and a DynamoDB table (`table`), and the three-way merge of two editors' saves (`merge`)."""
