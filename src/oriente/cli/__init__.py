"""The `oriente` command (`main`) and the demo: the one package that may
import the server and the clients together."""

from .main import main

__all__ = ["main"]
