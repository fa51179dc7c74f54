"""A webhook receiver no one here wrote the checks of: every delivery's signature is
verified with the `standardwebhooks` package (the Standard Webhooks reference library) and
its body parsed with the CloudEvents SDK (`cloudevents`), then one JSON line per delivery is
appended to --log: the webhook-id, the CloudEvent's type, id, source and subject, and the
event (its data). A delivery whose signature does not verify is answered 401 and logged
with "verified": false.

Modes (--mode): `ok` answers 204; `slow` logs each request's arrival ("arrived": true,
the webhook-id and the time) and answers after --delay seconds; `huge` answers 200
with a body of --huge-bytes; `redirect` answers 307 to --location; `fail` answers 500.
With --fail-first N, the first N deliveries are answered 503 (with `Retry-After:
--retry-after` when given), each logged with "refused": true and the time.

With --format openlineage, a delivery is an OpenLineage RunEvent (issue 58): after its
signature, every part of it is rebuilt with `openlineage-python`'s models (RunEvent, Run,
Job, OutputDataset and the facet classes of openlineage.client.generated: a member a model
does not have, a missing one, a run ID that is not a UUID or a time that is not one is an
error), each `schemaURL`/`_schemaURL` checked against the model's own, and the event logged
as the models serialise it ("lineage"). An event that does not validate is answered 400 and
logged with "valid": false and the error.

Usage: webhook_receiver.py --port P --secret-file F --log L [--mode M] [--format F]
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
            # Logged on arrival: a test sees the sender holding the delivery meanwhile.
            log({"arrived": True, "at": time.time(), "webhook_id": self.headers.get("webhook-id")})
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
        if args.format == "openlineage":
            try:
                lineage = validate_lineage(json.loads(body))
            except Exception as e:  # noqa: BLE001 - any failure is the test's finding
                log({"verified": True, "valid": False, "error": repr(e), "webhook_id": headers.get("webhook-id")})
                return self.answer(400, b"not a valid OpenLineage RunEvent")
            log(
                {
                    "verified": True,
                    "valid": True,
                    "webhook_id": headers["webhook-id"],
                    "content_type": headers.get("content-type"),
                    "at": time.time(),
                    "lineage": lineage,
                }
            )
            return self.answer(200)
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


def validate_lineage(raw):
    """The RunEvent rebuilt with openlineage-python's models, as they serialise it."""
    from openlineage.client.event_v2 import Job, OutputDataset, Run, RunEvent, RunState
    from openlineage.client.generated import (
        dataset_version_dataset,
        error_message_run,
        job_type_job,
        lifecycle_state_change_dataset,
        output_statistics_output_dataset,
        processing_engine_run,
        schema_dataset,
    )
    from openlineage.client.serde import Serde

    classes = {
        "schema": schema_dataset.SchemaDatasetFacet,
        "version": dataset_version_dataset.DatasetVersionDatasetFacet,
        "lifecycleStateChange": lifecycle_state_change_dataset.LifecycleStateChangeDatasetFacet,
        "outputStatistics": output_statistics_output_dataset.OutputStatisticsOutputDatasetFacet,
        "errorMessage": error_message_run.ErrorMessageRunFacet,
        "processing_engine": processing_engine_run.ProcessingEngineRunFacet,
        "jobType": job_type_job.JobTypeJobFacet,
    }

    def facet(name, raw_facet):
        cls = classes[name]
        members = {k: v for k, v in raw_facet.items() if not k.startswith("_")}
        if name == "schema":
            members["fields"] = [schema_dataset.SchemaDatasetFacetFields(**f) for f in members["fields"]]
        if name == "lifecycleStateChange":
            members["lifecycleStateChange"] = lifecycle_state_change_dataset.LifecycleStateChange(
                members["lifecycleStateChange"]
            )
        built = cls(**members, producer=raw_facet["_producer"])
        if built._schemaURL != raw_facet["_schemaURL"]:
            raise ValueError(f"facet {name}: _schemaURL {raw_facet['_schemaURL']} is not {built._schemaURL}")
        return built

    def facets(raw_facets):
        return {name: facet(name, f) for name, f in (raw_facets or {}).items()}

    if set(raw) - {"eventType", "eventTime", "producer", "schemaURL", "run", "job", "inputs", "outputs"}:
        raise ValueError(f"unknown members of a RunEvent: {sorted(raw)}")
    event = RunEvent(
        eventType=RunState(raw["eventType"]),
        eventTime=raw["eventTime"],
        producer=raw["producer"],
        run=Run(runId=raw["run"]["runId"], facets=facets(raw["run"].get("facets"))),
        job=Job(namespace=raw["job"]["namespace"], name=raw["job"]["name"], facets=facets(raw["job"].get("facets"))),
        inputs=[],
        outputs=[
            OutputDataset(
                namespace=o["namespace"],
                name=o["name"],
                facets=facets(o.get("facets")),
                outputFacets=facets(o.get("outputFacets")),
            )
            for o in raw["outputs"]
        ],
    )
    if event.schemaURL != raw["schemaURL"]:
        raise ValueError(f"schemaURL {raw['schemaURL']} is not {event.schemaURL}")
    return Serde.to_dict(event)


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
    parser.add_argument("--format", default="cloudevents", choices=["cloudevents", "openlineage"])
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"listening on {args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
