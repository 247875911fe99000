"""The old name of `oriente.fairplay.dealing`, kept for one release: it is
the very module (code outside the project imported it from here)."""

import sys

from oriente.fairplay import dealing

sys.modules[__name__] = dealing
