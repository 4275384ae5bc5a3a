"""`python -m dds ...` is the same as the installed `dds` command."""

import sys

from dds.cli import main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
