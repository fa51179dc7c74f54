"""Reading datasets through the environment's server, with the user's credentials:
tables as Arrow (whole, or streamed in batches over HTTP ranges, reading only the columns
and row groups needed), graphs, SPARQL, files of object storage, and a namespace's
listing."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import re
import urllib.parse
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._errors import StoneError, UnavailableError, UsageError
from ._http import Endpoint, RangeFile, call, endpoint, iter_body

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = [
    "Dataset",
    "read_table",
    "scan_batches",
    "read_graph",
    "query",
    "open_blob",
    "download",
    "datasets",
    "dataset_info",
]


def _parse_name(name: str, point: Endpoint, *, dataset: bool = True) -> Tuple[str, Optional[str]]:
    """``stone:<ns>/<name>`` (or the dataset's https IRI on the environment's host) →
    ``(ns, name)``; with ``dataset=False`` a namespace ``stone:<ns>``."""
    text = name.strip()
    if text.startswith("stone:"):
        rest = text[len("stone:") :].lstrip("/")
    elif text.startswith("https://") or text.startswith("http://"):
        parts = urllib.parse.urlsplit(text)
        if point.host and (parts.netloc or "").lower() != point.host.lower():
            raise UsageError(
                "usage.invalid_name",
                f"{name} is not on the host of `{point.env}` ({point.host})",
                hint="pass env= for the environment whose host it is on, or a stone: name",
            )
        rest = parts.path.lstrip("/")
    else:
        raise UsageError(
            "usage.invalid_name",
            f"not a stone name: {name!r}",
            hint="name a dataset as stone:<namespace>/<name> (a namespace as stone:<namespace>)",
        )
    pieces = [urllib.parse.unquote(p) for p in rest.split("/") if p]
    if dataset and len(pieces) == 2:
        return pieces[0], pieces[1]
    if not dataset and len(pieces) == 1:
        return pieces[0], None
    want = "stone:<namespace>/<name>" if dataset else "stone:<namespace>"
    raise UsageError("usage.invalid_name", f"not a {'dataset' if dataset else 'namespace'} name: {name!r}", hint=f"write it as {want}")


def _quote(part: str) -> str:
    return urllib.parse.quote(part, safe="")


def _content_url(point: Endpoint, ns: str, name: str, **query: Optional[str]) -> str:
    return point.url(f"/namespaces/{_quote(ns)}/datasets/{_quote(name)}/content", query)


def _pyarrow(parquet: bool = True) -> Any:
    """pyarrow, with its Parquet and dataset modules unless ``parquet`` is false (the
    Arrow answer needs neither: their import is ~0.07 CPU-s more)."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.ipc  # noqa: F401

        if parquet:
            import pyarrow.dataset  # noqa: F401
            import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise StoneError(
            "client.missing_dependency",
            "reading tables needs pyarrow, which is not installed",
            hint="pip install 'stone-cli[arrow]' (or pip install pyarrow)",
        ) from None
    return pyarrow


@dataclasses.dataclass
class Dataset:
    """A dataset as the server describes it.

    Attributes:
        name: Its slug in the namespace.
        url: ``stone:<ns>/<name>``.
        iri: ``https://<host>/<ns>/<name>``.
        kind: ``TABULAR``, ``GRAPH``, ``RASTER``, ``BLOB``, ….
        engine: ``iceberg``, ``graph`` or ``blob``.
        info: The rest of what the server says (versions, schema, files, detail…).
    """

    name: str
    url: str
    iri: str
    kind: str
    engine: str
    info: Dict[str, Any] = dataclasses.field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "Dataset":
        return cls(
            name=str(data.get("name", "")),
            url=str(data.get("url", "")),
            iri=str(data.get("iri", "")),
            kind=str(data.get("kind", "")),
            engine=str(data.get("engine", "")),
            info=dict(data),
        )


def datasets(namespace: str, *, env: str = "prod", branch: str = "main") -> List[Dataset]:
    """The datasets of a namespace's package on ``branch``, in package order.

    Raises:
        NotFoundError: no package on that branch (or one the caller may not read).
        AuthError: the namespace is private and there is no login.
    """
    point = endpoint(env)
    ns, _ = _parse_name(namespace, point, dataset=False)
    url = point.url(f"/namespaces/{_quote(ns)}/package", {"branch": branch})
    node = call(point, "GET", url, what=f"the package of {ns}", headers={"Accept": "application/json"}).json()
    return [Dataset.from_json(r) for r in node.get("resources") or []]


def dataset_info(name: str, *, env: str = "prod", branch: str = "main", version: Optional[str] = None) -> Dataset:
    """What the server says about one dataset (kind, versions, schema, files, figures)."""
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    url = point.url(f"/namespaces/{_quote(ns)}/datasets/{_quote(ds)}", {"branch": branch, "version": version})
    return Dataset.from_json(call(point, "GET", url, what=f"{ns}/{ds}", headers={"Accept": "application/json"}).json())


def _table_file(name: str, env: str, branch: str, version: Optional[str]) -> Tuple[Endpoint, str, str]:
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    return point, _content_url(point, ns, ds, format="parquet", branch=branch, version=version), f"{ns}/{ds}"


def _filter_columns(row_filter: Any, names: Sequence[str]) -> List[str]:
    """The columns ``row_filter`` names (its text names each field it refers to; a name
    that only appears in a literal reads one column more, never one less)."""
    text = str(row_filter)
    found = []
    for name in names:
        if re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", text):
            found.append(name)
    return found


class _View(io.RawIOBase):
    """A second reader of a :class:`RangeFile`, with its own position, whose ``close``
    leaves the shared file open (pyarrow closes what it opened)."""

    def __init__(self, source: RangeFile) -> None:
        super().__init__()
        self._source = source
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._source.size}[whence]
        self._position = max(0, base + offset)
        return self._position

    def read(self, size: int = -1) -> bytes:
        self._source.seek(self._position)
        data = self._source.read(size)
        self._position += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _row_groups_kept(source: RangeFile, row_filter: Any) -> List[int]:
    """The row groups of the Parquet answer that ``row_filter`` may keep rows of:
    pyarrow's own pruning by the row groups' statistics (min, max, null count), read
    from the file's footer. A group is skipped only when its statistics prove no row of
    it passes (a filter on a column without statistics keeps every group)."""
    import pyarrow as pa
    import pyarrow.dataset as pads
    import pyarrow.fs as pafs

    class OneFile(pafs.FileSystemHandler):
        """The answer as the one file of a read-only file system (what a pyarrow
        dataset fragment reads through)."""

        def __eq__(self, other: Any) -> bool:
            return self is other

        def __ne__(self, other: Any) -> bool:
            return self is not other

        def get_type_name(self) -> str:
            return "stone"

        def normalize_path(self, path: str) -> str:
            return path

        def get_file_info(self, paths: Any) -> Any:
            return [pafs.FileInfo(p, pafs.FileType.File, size=source.size) for p in paths]

        def open_input_stream(self, path: str) -> Any:
            return pa.PythonFile(_View(source), mode="r")

        def open_input_file(self, path: str) -> Any:
            return pa.PythonFile(_View(source), mode="r")

        def _read_only(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError("read-only")

        get_file_info_selector = create_dir = delete_dir = delete_dir_contents = _read_only
        delete_root_dir_contents = delete_file = move = copy_file = _read_only
        open_output_stream = open_append_stream = _read_only

    fragment = pads.ParquetFileFormat().make_fragment("table.parquet", filesystem=pafs.PyFileSystem(OneFile()))
    fragment.ensure_complete_metadata()
    return [group.id for group in fragment.subset(row_filter).row_groups]


def scan_batches(
    name: str,
    *,
    env: str = "prod",
    branch: str = "main",
    version: Optional[str] = None,
    columns: Optional[Sequence[str]] = None,
    row_filter: Any = None,
    batch_size: int = 65_536,
) -> "pyarrow.RecordBatchReader":
    """A table read in batches, for tables larger than memory: a
    ``pyarrow.RecordBatchReader`` over the server's Parquet answer, read by HTTP ranges:
    the footer, then one row group at a time, of which only the column chunks of
    ``columns`` (and of the fields ``row_filter`` uses). With ``row_filter``, the row
    groups whose statistics (min, max, nulls) show that no row passes are not read at
    all. Memory stays about one row group's, whatever the table's size.

    Args:
        name: ``stone:<ns>/<name>``.
        env: The environment (``stone env``).
        branch: The branch (default ``main``).
        version: A named version of that branch (the package version it was pushed with).
        columns: The columns to read, in this order (default: all).
        row_filter: Rows to keep, a ``pyarrow.compute.Expression``
            (``pc.field("year") >= 2020``).
        batch_size: Rows per batch at most.
    """
    pa = _pyarrow()
    import pyarrow.parquet as pq

    point, url, what = _table_file(name, env, branch, version)
    source = RangeFile(point, url, what=what)
    try:
        parquet = pq.ParquetFile(source, pre_buffer=False)
        names = parquet.schema_arrow.names
        wanted = list(columns) if columns is not None else list(names)
        missing = [c for c in wanted if c not in names]
        if missing:
            raise UsageError(
                "usage.invalid_column",
                f"{what} has no column {', '.join(repr(c) for c in missing)} (it has {', '.join(names)})",
            )
        read = list(wanted)
        if row_filter is not None:
            read += [c for c in _filter_columns(row_filter, names) if c not in read]
        schema = pa.schema([parquet.schema_arrow.field(c) for c in wanted])
        groups = list(range(parquet.num_row_groups))
        if row_filter is not None:
            groups = _row_groups_kept(source, row_filter)
    except BaseException:
        source.close()
        raise

    def batches() -> Iterator[Any]:
        # Each row group is read whole before the next (no read-ahead): every read of the
        # HTTP file happens within this call, none is left running in another thread.
        try:
            for index in groups:
                group = parquet.read_row_group(index, columns=read, use_threads=True)
                if row_filter is not None:
                    group = group.filter(row_filter)
                group = group.select(wanted)
                for batch in group.to_batches(max_chunksize=batch_size):
                    if batch.num_rows:
                        yield batch.cast(schema) if batch.schema != schema else batch
                del group
        finally:
            source.close()

    return pa.RecordBatchReader.from_batches(schema, batches())


def read_table(
    name: str,
    *,
    env: str = "prod",
    branch: str = "main",
    version: Optional[str] = None,
    columns: Optional[Sequence[str]] = None,
    row_filter: Any = None,
) -> "pyarrow.Table":
    """A table dataset as a ``pyarrow.Table`` (``.to_pandas()``, ``polars.from_arrow``).

    The whole table is fetched in one request, as the Arrow IPC stream (each batch's
    buffers compressed with zstd, decompressed on pyarrow's threads), decoded as it
    arrives; with ``columns`` or ``row_filter`` only the
    column chunks and row groups needed are read from the server's Parquet answer (HTTP
    ranges; row groups whose statistics rule the filter out are skipped), as in
    :func:`scan_batches`.

    Raises:
        NotFoundError: no such dataset, branch or version (``dataset.not_found``).
        AuthError: a private namespace without a login or token (``auth.required``).
        RefusedError: a token without read access (``authz.forbidden``).
    """
    if columns is not None or row_filter is not None:
        return scan_batches(
            name, env=env, branch=branch, version=version, columns=columns, row_filter=row_filter
        ).read_all()
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    what = f"{ns}/{ds}"
    table = _read_arrow(point, ns, ds, what, branch, version)
    if table is not None:
        return table
    return _read_streamed(point, _content_url(point, ns, ds, format="parquet", branch=branch, version=version), what)


class _Body(io.RawIOBase):
    """An answer's body as a file for pyarrow, checked against its ``Content-Length``:
    an answer cut short is an error, never a table with fewer rows (an Arrow stream
    cut between two messages reads as a shorter stream)."""

    def __init__(self, answer: Any, what: str) -> None:
        super().__init__()
        self._answer = answer
        self._what = what
        length = answer.header("Content-Length")
        self._length = int(length) if length is not None else None
        self.received = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self._answer.read(size if size is not None else -1)
        self.received += len(data)
        if self._length is not None and (
            self.received > self._length or (not data and size != 0 and self.received < self._length)
        ):
            raise UnavailableError(
                "read.short",
                f"{self._what}: the answer ended after {self.received} of {self._length} bytes",
                hint="read it again",
            )
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _read_arrow(point: Endpoint, ns: str, ds: str, what: str, branch: str, version: Optional[str]) -> Any:
    """The whole table as the server's Arrow answer (the IPC stream, ``format=arrow``),
    decoded as it arrives, in one request: the batches become the table's chunks without
    a copy or a concatenation, so memory is the table's plus one message.

    It asks ``compression=zstd``: each batch's buffers compressed with zstd inside the
    stream (the IPC format's own compression), which pyarrow decompresses on its thread
    pool, a batch's buffers in parallel. A server that predates it ignores the parameter
    and, as ``Accept-Encoding: zstd`` is sent too, answers the stream compressed whole
    (``Content-Encoding: zstd``, decompressed on this thread). ``None`` when the server
    does not serve the Arrow answer at all (an older server still)."""
    pa = _pyarrow(parquet=False)

    url = _content_url(point, ns, ds, format="arrow", compression="zstd", branch=branch, version=version)
    try:
        answer = call(point, "GET", url, what=what, headers={"Accept-Encoding": "zstd"})
    except StoneError as error:
        if error.http_status in (400, 406):
            return None
        raise
    try:
        body = _Body(answer, what)
        source: Any = pa.PythonFile(body, mode="r")
        encoding = (answer.header("Content-Encoding") or "").strip().lower()
        if encoding == "zstd":
            source = pa.CompressedInputStream(source, "zstd")
        elif encoding not in ("", "identity"):
            raise StoneError("client.protocol", f"{what}: the server sent an encoding that was not asked for ({encoding})")
        # The batches' buffers from the system allocator: with pyarrow's default pool
        # (mimalloc) a table of 20,000,000 rows (720 MB) peaked at 845 MB, with this one at
        # 731 MB, and its decode time no longer varied from one read to the next by 4x.
        table = pa.ipc.open_stream(
            source, options=pa.ipc.IpcReadOptions(use_threads=True), memory_pool=pa.system_memory_pool()
        ).read_all()
        if body._length is not None and body.received < body._length:
            # The stream's end-of-stream marker came before the answer's end.
            raise StoneError("client.protocol", f"{what}: {body._length - body.received} bytes after the end of the table")
        return table
    finally:
        answer.close()


def _read_streamed(point: Endpoint, url: str, what: str) -> Any:
    """The whole table as the server's Parquet answer (an older server, without the
    Arrow answer): received in one request straight into one buffer (no copy), then
    decoded by pyarrow, row groups and columns on its threads."""
    pa = _pyarrow()
    import pyarrow.parquet as pq

    answer = call(point, "GET", url, what=what)
    length = answer.header("Content-Length")
    if length is None:
        data = bytearray()
        for chunk in iter_body(answer):
            data += chunk
    else:
        data = bytearray(int(length))
        view = memoryview(data)
        filled = 0
        while filled < len(data):
            got = answer.readinto(view[filled:])
            if not got:
                raise UnavailableError(
                    "read.short", f"{what}: the answer ended after {filled} of {len(data)} bytes", hint="read it again"
                )
            filled += got
        del view
    answer.close()
    return pq.read_table(pa.py_buffer(data))


def read_graph(
    name: str, *, env: str = "prod", branch: str = "main", version: Optional[str] = None, as_text: bool = False
) -> Union[str, List[Any]]:
    """A graph dataset's triples: a list of ``pyoxigraph.Triple`` when pyoxigraph is
    installed (and ``as_text`` is false), else its N-Triples text."""
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    url = _content_url(point, ns, ds, format="nt", branch=branch, version=version)
    answer = call(point, "GET", url, what=f"{ns}/{ds}")
    data = b"".join(iter_body(answer))
    answer.close()
    if not as_text:
        try:
            import pyoxigraph
        except ImportError:
            pyoxigraph = None
        if pyoxigraph is not None:
            return list(pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.N_TRIPLES))
    return data.decode("utf-8")


def query(sparql: str, *, env: str = "prod") -> Any:
    """Runs a read-only SPARQL 1.1 query over the named graphs the caller may read.

    Returns:
        For ``SELECT``: a list of rows, each a dict of variable → value (the term's
        lexical form). For ``ASK``: a bool. Otherwise the SPARQL JSON results.
    """
    point = endpoint(env)
    answer = call(
        point,
        "POST",
        point.url("/sparql"),
        what="the SPARQL query",
        headers={"Content-Type": "application/sparql-query", "Accept": "application/sparql-results+json"},
        body=sparql.encode("utf-8"),
    )
    results = answer.json()
    if isinstance(results, dict) and "boolean" in results:
        return bool(results["boolean"])
    if isinstance(results, dict) and isinstance(results.get("results"), dict):
        rows = []
        for binding in results["results"].get("bindings") or []:
            rows.append({var: term.get("value") for var, term in binding.items()})
        return rows
    return results


def open_blob(
    name: str,
    *,
    path: Optional[str] = None,
    env: str = "prod",
    branch: str = "main",
    version: Optional[str] = None,
    buffer_size: int = 1 << 20,
) -> io.BufferedReader:
    """A file of an object-storage dataset (raster, array, blob, …) as a seekable,
    read-only binary file: each read fetches only the bytes it needs (HTTP ranges).

    Args:
        path: The file, when the dataset has more than one.
    """
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    url = _content_url(point, ns, ds, branch=branch, version=version, path=path)
    return io.BufferedReader(RangeFile(point, url, what=f"{ns}/{ds}" + (f" {path}" if path else "")), buffer_size)


def _safe_target(folder: str, path: str) -> str:
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts or os.path.isabs(path):
        raise StoneError("client.protocol", f"the server named a file outside the dataset: {path!r}")
    return os.path.join(folder, *parts)


def download(
    name: str,
    folder: Union[str, "os.PathLike[str]"],
    *,
    env: str = "prod",
    branch: str = "main",
    version: Optional[str] = None,
) -> List[str]:
    """Writes the files of an object-storage dataset under ``folder`` (each checked
    against its sha256); returns their paths. A table or a graph is written as one file
    (Parquet, N-Triples)."""
    info = dataset_info(name, env=env, branch=branch, version=version)
    point = endpoint(env)
    ns, ds = _parse_name(name, point)
    assert ds is not None
    folder = os.fspath(folder)
    os.makedirs(folder, exist_ok=True)
    wanted: List[Tuple[str, Optional[str], Optional[str], Dict[str, Optional[str]]]] = []
    if info.engine == "iceberg":
        wanted.append((f"{ds}.parquet", None, None, {"format": "parquet"}))
    elif info.engine == "graph":
        wanted.append((f"{ds}.nt", None, None, {"format": "nt"}))
    else:
        files = info.info.get("files") or []
        for entry in files:
            wanted.append((entry["path"], entry["path"] if len(files) > 1 else None, entry.get("sha256"), {}))
    written = []
    for relative, path, sha256, query_extra in wanted:
        target = _safe_target(folder, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        url = _content_url(point, ns, ds, branch=branch, version=version, path=path, **query_extra)
        answer = call(point, "GET", url, what=f"{ns}/{ds} {relative}")
        digest = hashlib.sha256()
        partial = target + ".part"
        with open(partial, "wb") as out:
            for chunk in iter_body(answer):
                digest.update(chunk)
                out.write(chunk)
        answer.close()
        if sha256 and digest.hexdigest() != sha256:
            os.remove(partial)
            raise StoneError("read.digest_mismatch", f"{ns}/{ds} {relative}: the bytes received do not have the sha256 the server lists")
        os.replace(partial, target)
        written.append(target)
    return written
