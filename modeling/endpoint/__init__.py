"""The endpoint adapter: the only place boto3 clients are built (`adapter`: the embedded moto server,
DynamoDB Local or AWS) and the one retry helper (`retry`)."""
