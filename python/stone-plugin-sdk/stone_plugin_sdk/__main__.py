"""``python -m stone_plugin_sdk --entry-point NAME``: loads the ``stone.plugins`` entry
point NAME, checks it is a PackagePushHandler (a class is instantiated first), and serves it
to stone. ``python -m stone_plugin_sdk --list`` prints the group's entry points as JSON
(what stone reads to find them)."""

from __future__ import annotations

import json
import sys
from importlib import metadata

GROUP = "stone.plugins"


def _entry_points():
    eps = metadata.entry_points()
    if hasattr(eps, "select"):
        return list(eps.select(group=GROUP))
    return list(eps.get(GROUP, []))  # Python < 3.10


def main(argv) -> int:
    if argv[:1] == ["--list"]:
        found = []
        for ep in _entry_points():
            dist = getattr(ep, "dist", None)
            found.append({"name": ep.name, "value": ep.value,
                          "distribution": getattr(dist, "name", None),
                          "version": getattr(dist, "version", None)})
        print(json.dumps(found))
        return 0
    if len(argv) != 2 or argv[0] != "--entry-point":
        sys.stderr.write("usage: python -m stone_plugin_sdk (--entry-point NAME | --list)\n")
        return 2
    name = argv[1]
    matches = [ep for ep in _entry_points() if ep.name == name]
    if not matches:
        sys.stderr.write(f"{name}: no entry point `{name}` in the group {GROUP}\n")
        return 3
    ep = matches[0]
    try:
        target = ep.load()
        handler = target() if isinstance(target, type) else target
    except Exception as e:  # the plugin's import failed: say where
        sys.stderr.write(f"{name}: cannot load {ep.value}: {type(e).__name__}: {e}\n")
        return 3
    dist = getattr(ep, "dist", None)
    from . import serve
    return serve(handler, name, getattr(dist, "version", None) or "0")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
