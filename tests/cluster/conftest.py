from .site import bus_url, site  # noqa: F401 - the fixtures, for this package
