"""The old name of `oriente.fairplay.verify`, kept for one release: it is
the very module (code outside the project imported it from here)."""

import sys

from oriente.fairplay import verify

sys.modules[__name__] = verify
