"""The ``stone`` executable this package was installed with, and how to run it.

The ``stone-cli`` wheel installs the executable and this package together: the executable
is found through the wheel's own record of its files (``importlib.metadata``), never by a
``PATH`` lookup that could pick up another ``stone``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
from typing import Any, Dict, List, Optional

from ._errors import StoneError, UsageError, error_for

_EXE = "stone.exe" if os.name == "nt" else "stone"
_found: Optional[str] = None


def _ours(dist: Any) -> bool:
    here = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
    try:
        init = os.path.realpath(str(dist.locate_file("stone_client/__init__.py")))
    except Exception:  # noqa: BLE001 - a strange distribution is not ours
        return False
    return os.path.dirname(init) == here


def stone_binary() -> str:
    """The path of the bundled ``stone`` executable.

    Raises:
        StoneError: ``client.no_binary`` when the wheel's executable is missing.
    """
    global _found
    if _found is not None:
        return _found
    try:
        from importlib import metadata
    except ImportError:  # pragma: no cover - Python < 3.8
        metadata = None  # type: ignore[assignment]
    if metadata is not None:
        for dist in metadata.distributions():
            name = (dist.metadata["Name"] or "").lower().replace("_", "-")
            if name != "stone-cli" or not _ours(dist):
                continue
            for file in dist.files or []:
                if file.name == _EXE and file.parent.name in ("bin", "Scripts"):
                    path = os.path.realpath(str(file.locate()))
                    if os.path.isfile(path) and os.access(path, os.X_OK):
                        _found = path
                        return path
    # Installed without a record (an unusual installer): the scripts folder of this
    # interpreter's installation scheme is where pip puts it.
    path = os.path.join(sysconfig.get_path("scripts"), _EXE)
    if os.path.isfile(path) and os.access(path, os.X_OK):
        _found = path
        return path
    raise StoneError(
        "client.no_binary",
        f"the stone executable of the stone-cli package is missing (looked in the package's record and in {os.path.dirname(path)})",
        hint="reinstall it: pip install --force-reinstall stone-cli",
    )


def run_json(args: List[str], *, what: str) -> Dict[str, Any]:
    """Runs ``stone ARGS`` (a command printing one JSON document on stdout), returns the
    document, or raises the :class:`StoneError` its ``--json`` error names."""
    try:
        done = subprocess.run(
            [stone_binary(), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
    except OSError as error:
        raise StoneError(
            "client.no_binary", f"cannot run {stone_binary()}: {error}"
        ) from None
    return parse_output(done.returncode, done.stdout, done.stderr, what=what)


def parse_output(status: int, stdout: bytes, stderr: bytes, *, what: str) -> Dict[str, Any]:
    """The JSON document of a finished ``stone`` command, or its error raised."""
    text = stdout.decode("utf-8", errors="replace").strip()
    document: Any = None
    if text:
        try:
            document = json.loads(text)
        except ValueError:
            document = None
    if status == 0 and isinstance(document, dict):
        return document
    if isinstance(document, dict) and isinstance(document.get("error"), dict):
        raise error_for(document["error"], status)
    tail = stderr.decode("utf-8", errors="replace").strip().splitlines()[-5:]
    if status == 2:
        # clap's own usage errors (no JSON): the SDK passed something stone does not take.
        raise UsageError("usage.invalid", f"{what}: {' / '.join(tail) or 'usage error'}", exit_status=2)
    raise StoneError(
        "internal",
        f"{what} exited with status {status} without a result",
        causes=tail,
        exit_status=status,
    )

