"""`dds`: the one command line of DynamoDB Design Studio, with subcommands by task (see dds.cli)."""
