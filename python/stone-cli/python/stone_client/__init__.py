"""stone from Python: push data packages and read datasets back, in a notebook or a script.

    import stone_client as stone

    result = stone.push("my-package", env="dev", branch="exp")   # stone package push --json
    table = stone.read_table("stone:demo/cities", env="dev")     # a pyarrow.Table
    df = table.to_pandas()

The push runs the ``stone`` executable installed with this package (the same rules as on
the command line: the branch from git or CI variables and never ``main`` by default,
``yes=True`` for a protected ref, the prod guard). Reads go to the environment's server
with the login ``stone login`` stored (refreshed as needed) or ``STONE_TOKEN``; the token
is sent to the environment's API and nowhere else, and never shown.

Every failure raises a :class:`StoneError` subclass carrying the CLI's stable ``code``
(``push.no_branch``, ``auth.required``, ``dataset.not_found``, …), ``message``, ``hint``
and ``exit_status``.
"""

from __future__ import annotations

from stone_plugin_sdk import AssetKind, DatasetOutcome, PushResult

from ._binary import stone_binary
from ._errors import (
    AuthError,
    NotFoundError,
    PluginFailed,
    PushFailed,
    RefusedError,
    StoneError,
    UnavailableError,
    UsageError,
)
from ._push import PushPlan, push
from ._read import (
    Dataset,
    dataset_info,
    datasets,
    download,
    open_blob,
    query,
    read_graph,
    read_table,
    scan_batches,
)

__version__ = "0.1.0"

__all__ = [
    "push",
    "read_table",
    "scan_batches",
    "read_graph",
    "query",
    "open_blob",
    "download",
    "datasets",
    "dataset_info",
    "stone_binary",
    "PushResult",
    "PushPlan",
    "DatasetOutcome",
    "AssetKind",
    "Dataset",
    "StoneError",
    "PushFailed",
    "UsageError",
    "AuthError",
    "RefusedError",
    "UnavailableError",
    "PluginFailed",
    "NotFoundError",
]
