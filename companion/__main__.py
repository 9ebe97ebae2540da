"""``python -m companion`` is the same program as the ``companion`` console script."""

import sys

from companion.cli import main

if __name__ == "__main__":
    sys.exit(main())
