"""Hypothesis profiles for the whole test suite.

HYPOTHESIS_PROFILE=quick (the default, used in CI) keeps property runs
short and derandomized, so CI sees the same examples on every run;
HYPOTHESIS_PROFILE=long runs many more, freshly random examples.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "quick",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))

# The PostgreSQL fixtures (`postgres_schemas`) for the store tests, the
# end-to-end tests and anything else that runs on a site's database.
pytest_plugins = ["tests.postgres"]
