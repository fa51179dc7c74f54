"""``push``: the CLI's ``stone package push --json``, run by the bundled executable."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
from typing import IO, Any, Dict, List, Literal, Optional, Union, overload

from stone_plugin_sdk import PushResult

from ._binary import parse_output, stone_binary
from ._errors import StoneError

__all__ = ["push", "PushPlan"]


@dataclasses.dataclass
class PushPlan:
    """What a push would do (``dry_run=True``): nothing was uploaded.

    Attributes:
        destination: ``stone:<ns>`` or another destination.
        branch: The branch the push would go to, decided by the CLI's rules.
        env: The environment's name.
        datasets: One entry per dataset: ``url``, ``kind``, ``engine``, ``resource``, ….
        plan: The whole plan as ``stone package push --dry-run --json`` prints it.
    """

    destination: str
    branch: str
    env: str
    datasets: List[Dict[str, Any]]
    plan: Dict[str, Any]

    @classmethod
    def from_json(cls, document: Dict[str, Any]) -> "PushPlan":
        plan = document.get("plan") or {}
        branch = plan.get("branch")
        if isinstance(branch, dict):
            branch = branch.get("name") or branch.get("branch") or ""
        datasets = plan.get("datasets")
        if isinstance(datasets, dict):
            datasets = datasets.get("items") or datasets.get("datasets") or []
        return cls(
            destination=str(plan.get("destination", "")),
            branch=str(branch or ""),
            env=str((plan.get("environment") or {}).get("name", "")),
            datasets=list(datasets or []),
            plan=plan,
        )


class _Progress:
    """The CLI's progress lines (stderr): a tqdm bar when tqdm is installed (in Jupyter
    its widget), else the lines themselves on ``sys.stderr``."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.lines: List[str] = []
        self.bar: Any = None
        if enabled:
            try:
                from tqdm.auto import tqdm  # type: ignore[import-not-found]
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=None, unit=" step", desc="stone push", leave=True)

    def line(self, text: str) -> None:
        self.lines.append(text)
        del self.lines[:-50]
        # The error itself is raised as a StoneError: not shown twice.
        if not self.enabled or text.startswith(("error: ", "hint: ", "  Caused by: ")):
            return
        if self.bar is not None:
            self.bar.set_description_str(text.strip()[:80])
            self.bar.update(1)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _relay(stream: IO[bytes], progress: _Progress) -> None:
    for raw in iter(stream.readline, b""):
        progress.line(raw.decode("utf-8", errors="replace").rstrip("\n"))


@overload
def push(
    path: Union[str, "os.PathLike[str]"],
    *,
    env: str = ...,
    branch: Optional[str] = ...,
    yes: bool = ...,
    force: bool = ...,
    replace: bool = ...,
    dry_run: "Literal[False]" = ...,
    progress: bool = ...,
    to: Optional[str] = ...,
) -> PushResult: ...


@overload
def push(
    path: Union[str, "os.PathLike[str]"],
    *,
    env: str = ...,
    branch: Optional[str] = ...,
    yes: bool = ...,
    force: bool = ...,
    replace: bool = ...,
    dry_run: "Literal[True]",
    progress: bool = ...,
    to: Optional[str] = ...,
) -> PushPlan: ...


def push(
    path: Union[str, "os.PathLike[str]"],
    *,
    env: str = "prod",
    branch: Optional[str] = None,
    yes: bool = False,
    force: bool = False,
    replace: bool = False,
    dry_run: bool = False,
    progress: bool = True,
    to: Optional[str] = None,
) -> Union[PushResult, PushPlan]:
    """Publishes the package at ``path`` (a folder with a ``datasets.yaml``), exactly as
    ``stone package push PATH --json`` does: the same rules, run by the ``stone``
    executable installed with this package.

    Args:
        path: The package directory.
        env: The environment, as configured with ``stone env add`` (default ``prod``).
        branch: The branch; by default the CLI decides: ``$CI_HEAD_REF``, else
            ``$CI_REF_NAME``, else the current git branch, never ``main``.
        yes: Confirm a manual push to a protected ref (``--yes``).
        force: ``--force`` (incompatible schema changes, overwriting a version, …).
        replace: Replace each dataset's content instead of appending to it.
        dry_run: Only plan: returns a :class:`PushPlan`, uploads nothing.
        progress: Show progress: a tqdm bar when tqdm is installed (Jupyter or a
            terminal), else the CLI's lines on ``sys.stderr``.
        to: Push somewhere else than ``publish.to`` (``--to``).

    Returns:
        A :class:`stone_plugin_sdk.PushResult` (the plugin SDK's record: ``push_id``,
        ``datasets`` with their ``url``, ``iri``, ``status`` and ``detail``), or a
        :class:`PushPlan` with ``dry_run=True``.

    Raises:
        StoneError: a subclass by the CLI's exit status, with its stable ``code``
            (``push.no_branch``, ``push.protected_ref``, ``auth.required``, …).
    """
    args = ["package", "push", os.fspath(path), "--json", "--env", env]
    if branch is not None:
        args += ["--branch", branch]
    if to is not None:
        args += ["--to", to]
    for flag, on in (("--yes", yes), ("--force", force), ("--replace", replace), ("--dry-run", dry_run)):
        if on:
            args.append(flag)
    shown = _Progress(progress)
    try:
        child = subprocess.Popen(
            [stone_binary(), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as error:
        raise StoneError("client.no_binary", f"cannot run {stone_binary()}: {error}") from None
    assert child.stdout is not None and child.stderr is not None
    relay = threading.Thread(target=_relay, args=(child.stderr, shown), daemon=True)
    relay.start()
    try:
        stdout = child.stdout.read()
        status = child.wait()
    except BaseException:
        # KeyboardInterrupt in a notebook: stop the push (it resumes when run again).
        child.terminate()
        child.wait()
        raise
    finally:
        relay.join(timeout=5)
        shown.close()
    document = parse_output(
        status,
        stdout,
        "\n".join(shown.lines).encode(),
        what="stone package push",
    )
    if dry_run:
        return PushPlan.from_json(document)
    return PushResult.from_json(document)
