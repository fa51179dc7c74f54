"""The exceptions of :mod:`stone_client`: one :class:`StoneError` per failure, carrying the
stable dotted ``code`` the CLI and the server use (``push.no_branch``, ``auth.required``,
``dataset.not_found``, …), the message, the hint, the causes and the exit status the CLI
gives that code. Tokens never appear in any of them."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Type

__all__ = [
    "StoneError",
    "PushFailed",
    "UsageError",
    "AuthError",
    "RefusedError",
    "UnavailableError",
    "PluginFailed",
    "NotFoundError",
    "error_for",
    "error_for_status",
]


class StoneError(Exception):
    """A failure of stone, as the CLI reports it.

    Attributes:
        code: The stable dotted code (``push.no_branch``); scripts test it, never the message.
        message: What went wrong.
        hint: How to fix it, when known.
        causes: The chain of causes, outermost first.
        exit_status: The exit status of the ``stone`` command (for a read through HTTP: the
            status the CLI gives errors of this class), see docs/guide.md "Exit codes".
        http_status: The HTTP status of a refused read, else ``None``.
    """

    #: The CLI's exit status for this class of errors.
    status = 1

    def __init__(
        self,
        code: str,
        message: str,
        *,
        hint: Optional[str] = None,
        causes: Optional[List[str]] = None,
        exit_status: Optional[int] = None,
        http_status: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.causes = list(causes or [])
        self.exit_status = self.status if exit_status is None else exit_status
        self.http_status = http_status

    def __str__(self) -> str:
        text = f"{self.message} [{self.code}]"
        for cause in self.causes:
            text += f"\n  Caused by: {cause}"
        if self.hint:
            text += f"\nhint: {self.hint}"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class PushFailed(StoneError):
    """The push, the package or a read failed (exit status 1)."""

    status = 1


class UsageError(StoneError):
    """A usage error: a bad argument, an unknown environment, no branch (exit status 2)."""

    status = 2


class AuthError(StoneError):
    """Authentication is needed or was refused (exit status 3): ``stone login --env ENV``,
    or an access token in ``STONE_TOKEN``."""

    status = 3


class RefusedError(StoneError):
    """Refused by a guard: a protected ref without ``yes=True``, ``--force`` without the
    role, no permission on the namespace (exit status 4)."""

    status = 4


class UnavailableError(StoneError):
    """The server or the storage is unavailable: run the same call again; a push resumes
    (exit status 5)."""

    status = 5


class PluginFailed(StoneError):
    """A push plugin failed (exit status 6)."""

    status = 6


class NotFoundError(PushFailed):
    """No such dataset, branch, version or file (or one the caller may not see)."""


_BY_STATUS: Dict[int, Type[StoneError]] = {
    1: PushFailed,
    2: UsageError,
    3: AuthError,
    4: RefusedError,
    5: UnavailableError,
    6: PluginFailed,
}


def error_for(report: Dict[str, Any], exit_status: int) -> StoneError:
    """The exception for the CLI's ``--json`` error report and its exit status."""
    code = str(report.get("code") or "internal")
    cls = _BY_STATUS.get(exit_status, StoneError)
    if code.endswith(".not_found") and cls is PushFailed:
        cls = NotFoundError
    causes = report.get("causes") or []
    return cls(
        code,
        str(report.get("message") or "stone failed"),
        hint=report.get("hint"),
        causes=[str(c) for c in causes],
        exit_status=exit_status,
    )


def error_for_status(
    http_status: int, code: Optional[str], message: str, hint: Optional[str] = None
) -> StoneError:
    """The exception for a refused HTTP read: by the problem's code, else by the status."""
    if http_status == 401 or (code or "").startswith("auth."):
        cls: Type[StoneError] = AuthError
    elif http_status == 403:
        cls = RefusedError
    elif http_status == 404 or (code or "").endswith(".not_found"):
        cls = NotFoundError
    elif http_status in (408, 429) or http_status >= 500:
        cls = UnavailableError
    else:
        cls = PushFailed
    return cls(
        code or f"http.{http_status}",
        message,
        hint=hint,
        http_status=http_status,
    )
