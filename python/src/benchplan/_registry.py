"""The ``inspect_ai`` entry point: Inspect imports this module when it starts, which registers the hooks.

The hooks do nothing until a baseline is configured (see :mod:`benchplan.inspect_hooks`).
"""

from .inspect_hooks import _register

_register()
