"""A webhook receiver no one here wrote the checks of: every delivery's signature is
verified with the `standardwebhooks` package (the Standard Webhooks reference library) and
its body parsed with the CloudEvents SDK (`cloudevents`), then one JSON line per delivery is
appended to --log: the webhook-id, the CloudEvent's type, id, source and subject, and the
event (its data). A delivery whose signature does not verify is answered 401 and logged
with "verified": false.

Modes (--mode): `ok` answers 204; `slow` answers after --delay seconds; `huge` answers 200
with a body of --huge-bytes; `redirect` answers 307 to --location; `fail` answers 500.
With --fail-first N, the first N deliveries are answered 503 (with `Retry-After:
--retry-after` when given), each logged with "refused": true and the time.

Usage: webhook_receiver.py --port P --secret-file F --log L [--mode M]
The secret file may appear after the receiver starts: until it does, deliveries are
answered 503 (and the server tries again).
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cloudevents.core.bindings.http import HTTPMessage, from_http_event
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

args = None
lock = threading.Lock()
refused = 0


def log(entry):
    with lock:
        with open(args.log, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")
            out.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *rest):
        sys.stderr.write("%s\n" % (format % rest))

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_POST(self):
        global refused
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if args.mode == "fail":
            log({"refused": True, "at": time.time(), "webhook_id": self.headers.get("webhook-id")})
            return self.answer(500, b"this receiver always fails")
        with lock:
            refuse = refused < args.fail_first
            refused += 1 if refuse else 0
        if refuse:
            log({"refused": True, "at": time.time(), "webhook_id": self.headers.get("webhook-id")})
            headers = [("Retry-After", str(args.retry_after))] if args.retry_after is not None else []
            return self.answer(503, b"not now", headers)
        if args.mode == "redirect":
            return self.answer(307, headers=[("Location", args.location)])
        if args.mode == "slow":
            time.sleep(args.delay)
        if args.mode == "huge":
            self.send_response(200)
            self.send_header("Content-Length", str(args.huge_bytes))
            self.end_headers()
            chunk = b"x" * (1 << 20)
            sent = 0
            try:
                while sent < args.huge_bytes:
                    part = chunk[: min(len(chunk), args.huge_bytes - sent)]
                    self.wfile.write(part)
                    sent += len(part)
            except (BrokenPipeError, ConnectionResetError):
                pass
            log({"huge_sent": sent})
            return
        if not os.path.exists(args.secret_file):
            return self.answer(503, b"no secret yet")
        with open(args.secret_file, encoding="utf-8") as f:
            secret = f.read().strip()
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            Webhook(secret).verify(body, headers)
        except WebhookVerificationError as e:
            log({"verified": False, "error": str(e), "webhook_id": headers.get("webhook-id")})
            return self.answer(401, b"bad signature")
        event = from_http_event(HTTPMessage(headers=headers, body=body))
        data = event.get_data()
        if isinstance(data, (bytes, str)):
            data = json.loads(data)
        log(
            {
                "verified": True,
                "webhook_id": headers["webhook-id"],
                "ce_id": event.get_id(),
                "ce_type": event.get_type(),
                "ce_source": event.get_source(),
                "ce_subject": event.get_subject(),
                "content_type": headers.get("content-type"),
                "at": time.time(),
                "event": data,
            }
        )
        self.answer(204)


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--mode", default="ok", choices=["ok", "slow", "huge", "redirect", "fail"])
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--retry-after", type=int)
    parser.add_argument("--delay", type=float, default=60)
    parser.add_argument("--huge-bytes", type=int, default=1 << 30)
    parser.add_argument("--location", default="http://127.0.0.1:9/")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"listening on {args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
