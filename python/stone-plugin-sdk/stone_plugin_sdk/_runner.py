"""Serves a :class:`PackagePushHandler` over the stone plugin protocol (JSON-RPC 2.0, one
message per line on stdin/stdout; stderr is the plugin's own)."""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, Dict, Optional, TextIO

_out: TextIO = sys.stdout


def _send(message: Dict[str, Any]) -> None:
    message["jsonrpc"] = "2.0"
    _out.write(json.dumps(message, separators=(",", ":")) + "\n")
    _out.flush()


def progress(bytes: int = 0, message: Optional[str] = None) -> None:
    """Tells stone about progress during ``push`` (bytes uploaded since the last call).
    Also keeps the push alive: stone expects a sign of life within its plugin timeout."""
    params: Dict[str, Any] = {"bytes": int(bytes)}
    if message is not None:
        params["message"] = message
    _send({"method": "progress", "params": params})


def log(level: str, message: str) -> None:
    """A log line for stone to show (``error``, ``warn``, ``info``, ``debug``)."""
    _send({"method": "log", "params": {"level": level, "message": message}})


def _error(request_id: Any, code: int, message: str, dotted: str, causes=()) -> None:
    _send({"id": request_id, "error": {"code": code, "message": message,
                                        "data": {"code": dotted, "causes": list(causes)}}})


def serve(handler: Any, name: str, version: str = "0", stdin: TextIO = sys.stdin) -> int:
    """Answers stone's requests with ``handler`` until ``shutdown`` or the end of stdin.
    Returns the process exit status."""
    from . import (PACKAGE_PUSH_HANDLER, PROTOCOL_VERSIONS, PackagePushHandler, PluginError,
                   PushOptions, PushPackage)

    global _out
    # The protocol owns stdout: a print() in the plugin goes to stderr instead.
    _out, sys.stdout = sys.stdout, sys.stderr
    if not isinstance(handler, PackagePushHandler):
        sys.stderr.write(
            f"{name}: {type(handler).__name__} is not a PackagePushHandler "
            "(it needs can_handle(destination) and push(package, options))\n")
        return 3
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            sys.stderr.write(f"{name}: not JSON from stone: {line[:200]!r}\n")
            return 2
        if "id" not in request:
            continue  # notifications ($/cancel): a Python push runs to its end
        method, request_id = request.get("method"), request["id"]
        params = request.get("params") or {}
        try:
            if method == "initialize":
                offered = params.get("protocol_versions") or [params.get("protocol_version")]
                common = [v for v in offered if v in PROTOCOL_VERSIONS]
                if not common:
                    _error(request_id, -32602,
                           f"stone offers protocol versions {offered}; this plugin speaks "
                           f"{list(PROTOCOL_VERSIONS)}", "plugin.version")
                    continue
                _send({"id": request_id, "result": {
                    "name": name, "version": version, "protocol_version": max(common),
                    "protocols": [PACKAGE_PUSH_HANDLER]}})
            elif method == "can_handle":
                _send({"id": request_id,
                       "result": bool(handler.can_handle(str(params["destination"])))})
            elif method == "push":
                result = handler.push(PushPackage.from_json(params["package"]),
                                      PushOptions.from_json(params["options"]))
                payload = result.to_json() if hasattr(result, "to_json") else result
                _send({"id": request_id, "result": payload})
            elif method == "shutdown":
                _send({"id": request_id, "result": None})
                return 0
            else:
                _error(request_id, -32601, f"unknown method {method}", "plugin.unknown_method")
        except PluginError as e:
            _error(request_id, -32000, str(e), e.code, e.causes)
        except Exception as e:  # a bug in the plugin: report it, stay alive for shutdown
            causes = traceback.format_exception_only(type(e), e)
            _error(request_id, -32000, f"{name} failed in {method}: {e}", "plugin.failed",
                   [c.strip() for c in causes])
    return 0
