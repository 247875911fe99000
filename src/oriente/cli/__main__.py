"""`python -m oriente.cli` is the `oriente` command."""

import sys

from .main import main

sys.exit(main())
