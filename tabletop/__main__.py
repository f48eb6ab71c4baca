"""``python -m tabletop``: the command line."""

import sys

from tabletop.cli import main

sys.exit(main())
