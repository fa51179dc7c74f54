"""Write stone package-push plugins in Python.

A plugin is any object that satisfies :class:`PackagePushHandler` (checked at run time
with ``isinstance``): ``can_handle(destination) -> bool`` and
``push(package, options) -> PushResult``. Declare it in the ``stone.plugins`` entry point
group; ``stone`` finds it in the Python environment it is configured for and runs it in its
own process through :func:`serve` (``python -m stone_plugin_sdk --entry-point NAME``).

The records mirror the stone plugin protocol, version 1 (``stone-plugin-protocol`` crate):
fields the host sends that this version does not know are ignored.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Dict, List, Optional, Protocol, runtime_checkable

__all__ = [
    "AssetKind",
    "PushFile",
    "PushResource",
    "PushPackage",
    "PushOptions",
    "DatasetOutcome",
    "PushResult",
    "PackagePushHandler",
    "PluginError",
    "progress",
    "log",
    "serve",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "PACKAGE_PUSH_HANDLER",
]

#: The plugin protocol versions this SDK speaks, oldest first. ``initialize`` answers the
#: newest one the host offers too.
PROTOCOL_VERSIONS = (1,)
#: The newest of them.
PROTOCOL_VERSION = PROTOCOL_VERSIONS[-1]
#: The protocol a push handler lists in its ``initialize`` answer.
PACKAGE_PUSH_HANDLER = "PackagePushHandler/1"


class AssetKind(str, enum.Enum):
    """What a resource is; the platform picks its engine from it."""

    TABULAR = "TABULAR"
    GRAPH = "GRAPH"
    RASTER = "RASTER"
    ARRAY = "ARRAY"
    TILES = "TILES"
    BLOB = "BLOB"
    GEOFEATURES = "GEOFEATURES"


def _known(cls: type, data: Dict[str, Any]) -> Dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}


@dataclasses.dataclass
class PushFile:
    """One file of a resource: ``path`` in the package, ``local`` where its bytes are on
    this machine (TABULAR files are Parquet, already converted)."""

    path: str
    local: str
    sha256: str
    size: int

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "PushFile":
        return cls(**_known(cls, data))


@dataclasses.dataclass
class PushResource:
    """A resource of the package: one dataset at the destination."""

    name: str
    path: str
    kind: AssetKind
    sha256: str
    size: int
    metadata: Dict[str, Any] = dataclasses.field(default_factory=dict)
    schema: Optional[Dict[str, Any]] = None
    files: List[PushFile] = dataclasses.field(default_factory=list)

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "PushResource":
        fields = _known(cls, data)
        fields["kind"] = AssetKind(fields["kind"])
        fields["files"] = [PushFile.from_json(f) for f in data.get("files", [])]
        fields["metadata"] = data.get("metadata") or {}
        return cls(**fields)


@dataclasses.dataclass
class PushPackage:
    """The resolved package: its directory, the destination as written, the namespace
    (empty outside the platform), package-level metadata and the resources."""

    root: str
    destination: str
    namespace: str
    metadata: Dict[str, Any]
    resources: List[PushResource]

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "PushPackage":
        return cls(
            root=data["root"],
            destination=data["destination"],
            namespace=data.get("namespace", ""),
            metadata=data.get("metadata") or {},
            resources=[PushResource.from_json(r) for r in data.get("resources", [])],
        )


@dataclasses.dataclass
class PushOptions:
    """The push's options: ``env``, ``branch``, ``yes``, ``force``, ``replace`` (the
    spec's), plus ``manual`` (not from CI), ``jobs`` and ``retries``."""

    env: str
    branch: str
    yes: bool = False
    force: bool = False
    replace: bool = False
    manual: bool = True
    jobs: int = 1
    retries: int = 0

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "PushOptions":
        return cls(**_known(cls, data))


@dataclasses.dataclass
class DatasetOutcome:
    """What happened to one dataset: its URL, the https IRI it can be read at, and a
    status (``created``, ``updated``, ``unchanged``, ``failed``, …)."""

    url: str
    iri: str
    status: str
    kind: Optional[AssetKind] = None
    engine: Optional[str] = None
    detail: Optional[Any] = None

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "DatasetOutcome":
        """The record of a ``stone package push --json`` result (unknown fields ignored;
        a kind this version does not know is kept as its text)."""
        fields = _known(cls, data)
        kind = fields.get("kind")
        if isinstance(kind, str):
            try:
                fields["kind"] = AssetKind(kind)
            except ValueError:
                pass
        return cls(**fields)

    def to_json(self) -> Dict[str, Any]:
        out = dataclasses.asdict(self)
        if isinstance(self.kind, AssetKind):
            out["kind"] = self.kind.value
        return {k: v for k, v in out.items() if v is not None or k in ("kind", "engine")}


@dataclasses.dataclass
class PushResult:
    """The push ID, the per-dataset outcomes and the package node."""

    push_id: str
    handler: str
    datasets: List[DatasetOutcome] = dataclasses.field(default_factory=list)
    package_node: Optional[DatasetOutcome] = None
    uploaded_bytes: int = 0
    already_staged: int = 0

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "PushResult":
        """The record of a ``stone package push --json`` result (unknown fields ignored)."""
        node = data.get("package_node")
        return cls(
            push_id=data["push_id"],
            handler=data.get("handler", ""),
            datasets=[DatasetOutcome.from_json(d) for d in data.get("datasets") or []],
            package_node=DatasetOutcome.from_json(node) if node else None,
            uploaded_bytes=data.get("uploaded_bytes") or 0,
            already_staged=data.get("already_staged") or 0,
        )

    def to_json(self) -> Dict[str, Any]:
        return {
            "push_id": self.push_id,
            "handler": self.handler,
            "datasets": [d.to_json() for d in self.datasets],
            "package_node": self.package_node.to_json() if self.package_node else None,
            "uploaded_bytes": self.uploaded_bytes,
            "already_staged": self.already_staged,
        }


@runtime_checkable
class PackagePushHandler(Protocol):
    """The package-push protocol: what a ``stone.plugins`` entry point must provide."""

    def can_handle(self, destination: str) -> bool:
        """True if this plugin takes the destination URL (quick, no side effects)."""
        ...

    def push(self, package: PushPackage, options: PushOptions) -> PushResult:
        """Uploads the resources and metadata, then waits for the result."""
        ...


class PluginError(Exception):
    """A failure to report to stone: ``message``, a stable dotted ``code`` and the causes
    (shown as ``Caused by:`` lines)."""

    def __init__(self, message: str, code: str = "plugin.failed", causes: Optional[List[str]] = None):
        super().__init__(message)
        self.code = code
        self.causes = list(causes or [])


from ._runner import log, progress, serve  # noqa: E402  (needs the records above)
