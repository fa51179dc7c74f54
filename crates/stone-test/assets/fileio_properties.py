"""`--property KEY=VALUE` options of the pyiceberg reader scripts, as catalog properties.

An s3:// warehouse needs s3.endpoint, s3.access-key-id, s3.secret-access-key and
s3.region (pyarrow's S3 file system reads the files).
"""


def fileio_properties(pairs):
    """KEY=VALUE strings as a dict; a malformed one stops the script."""
    result = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--property {pair!r}: expected KEY=VALUE")
        result[key] = value
    return result
