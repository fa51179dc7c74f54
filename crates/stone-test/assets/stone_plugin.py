#!/usr/bin/env python3
"""A stone plugin in Python (stdlib only), to prove plugins can be written in any language,
and to play every way a plugin can misbehave.

    stone_plugin.py NAME MODE [PREFIX] [OUTDIR]

MODE:
  good              claims destinations starting with PREFIX; push copies every file into
                    OUTDIR/<package path>, writes OUTDIR/plugin-env.json (the variable
                    names it was given) and OUTDIR/push-package.json (the PushPackage it
                    was given), and answers a PushResult
  exit-before-hello exits 3 before reading anything
  wrong-version     answers initialize with protocol version 99
  not-a-handler     lists only "Other/1" among its protocols
  stall             answers initialize, then never answers can_handle
  garbage           writes a line that is not JSON-RPC in answer to initialize
  crash-mid-push    claims PREFIX, sends a progress notification in push, then exits 1
  stall-mid-push    claims PREFIX, then sends nothing during push (writes its pid to
                    OUTDIR/push-started first)
"""
import json
import os
import shutil
import sys
import time

name, mode = sys.argv[1], sys.argv[2]
prefix = sys.argv[3] if len(sys.argv) > 3 else "pytest://"
outdir = sys.argv[4] if len(sys.argv) > 4 else None


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request, result):
    send({"id": request["id"], "result": result})


if mode == "exit-before-hello":
    sys.stderr.write("%s: cannot start: missing configuration\n" % name)
    sys.exit(3)

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    method = request.get("method")
    if "id" not in request:
        continue  # notifications ($/cancel) need no answer
    if method == "initialize":
        if mode == "garbage":
            sys.stdout.write("hello, I am not JSON-RPC\n")
            sys.stdout.flush()
            continue
        version = 99 if mode == "wrong-version" else request["params"]["protocol_version"]
        protocols = ["Other/1"] if mode == "not-a-handler" else ["PackagePushHandler/1"]
        answer(request, {"name": name, "version": "0.3.1", "protocol_version": version,
                         "protocols": protocols, "some_future_field": True})
    elif method == "can_handle":
        if mode == "stall":
            time.sleep(3600)
        answer(request, request["params"]["destination"].startswith(prefix))
    elif method == "push":
        package = request["params"]["package"]
        if mode == "crash-mid-push":
            send({"method": "progress", "params": {"bytes": 1}})
            sys.stderr.write("%s: segmentation fault (core dumped, pretend)\n" % name)
            sys.stderr.flush()
            os._exit(1)
        if mode == "hostile-text":
            # Escape sequences meant for the user's terminal: retitle, clear, recolour.
            evil = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\rover\u202eexe"
            send({"method": "log", "params": {"level": "warn", "message": "log " + evil}})
            sys.stderr.write("stderr " + evil + "\n")
            sys.stderr.flush()
            time.sleep(0.2)
            os._exit(1)
        if mode == "fail-with-causes":
            send({"id": request["id"], "error": {"code": -32000, "message": "the copy failed",
                  "data": {"code": "acc.copy_failed",
                           "causes": ["cannot write tiles/a.bin", "disk full"]}}})
            continue
        if mode == "stall-mid-push":
            if outdir:
                os.makedirs(outdir, exist_ok=True)
                with open(os.path.join(outdir, "push-started"), "w") as out:
                    out.write(str(os.getpid()))
            time.sleep(3600)
        copied = 0
        datasets = []
        root = package["root"]
        for resource in package["resources"]:
            for f in resource["files"]:
                rel = os.path.relpath(f["local"], root)
                target = os.path.join(outdir, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(f["local"], target)
                copied += f["size"]
                send({"method": "progress", "params": {"bytes": f["size"]}})
            datasets.append({"url": package["destination"] + "/" + resource["path"],
                             "iri": "file://" + os.path.join(outdir, resource["path"]),
                             "kind": resource["kind"], "engine": None, "status": "created"})
        send({"method": "log", "params": {"level": "info", "message": "copied %d bytes" % copied}})
        with open(os.path.join(outdir, "plugin-env.json"), "w") as out:
            json.dump(sorted(os.environ), out)
        with open(os.path.join(outdir, "push-package.json"), "w") as out:
            json.dump(package, out)
        answer(request, {"push_id": "py-1", "handler": name, "datasets": datasets,
                         "package_node": None, "uploaded_bytes": copied, "already_staged": 0})
    elif method == "shutdown":
        answer(request, None)
        break
    else:
        send({"id": request["id"], "error": {"code": -32601, "message": "unknown method " + method}})
