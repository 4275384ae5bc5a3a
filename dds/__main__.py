"""`python -m dds ...` is the same as the installed `dds` command."""

from dds.cli import run

if __name__ == "__main__":
    run()
