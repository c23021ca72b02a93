"""Read a multipart upload into memory under byte limits, without temporary files.

Starlette's form parser spools files over 1 MiB to the system temp folder; an upload here never
touches the disk (it is parsed from memory and only its text is stored). Sizes are checked as
the body streams in: a declared Content-Length over the limit is refused before any byte is
read, and a body that grows past the limit is refused at that point, not at its end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from app.errors import InvalidRequestError, PayloadTooLargeError
from app.textcheck import reject_nul

# Room for the multipart framing and the small text fields around the file.
FORM_OVERHEAD_BYTES = 64 * 1024
MAX_FIELD_BYTES = 1024
MAX_PARTS = 4
FILE_FIELD = "file"


@dataclass(frozen=True, slots=True)
class UploadedFile:
    filename: str | None  # as the client sent it: for display only, never a path
    content_type: str | None
    data: bytes


@dataclass(frozen=True, slots=True)
class UploadForm:
    file: UploadedFile
    fields: dict[str, str]


@dataclass(slots=True)
class _Part:
    name: str = ""
    filename: str | None = None
    content_type: str | None = None
    data: bytearray = field(default_factory=bytearray)


class _Collector:
    """python-multipart callbacks that keep the parts in memory and enforce the limits."""

    def __init__(self, max_file_bytes: int) -> None:
        self.max_file_bytes = max_file_bytes
        self.parts: list[_Part] = []
        self._header_name = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self.complete = False

    def callbacks(self) -> dict[str, object]:
        return {
            "on_part_begin": self.on_part_begin,
            "on_part_data": self.on_part_data,
            "on_header_field": self.on_header_field,
            "on_header_value": self.on_header_value,
            "on_header_end": self.on_header_end,
            "on_headers_finished": self.on_headers_finished,
            "on_end": self.on_end,
        }

    def on_part_begin(self) -> None:
        if len(self.parts) >= MAX_PARTS:
            raise InvalidRequestError(f"the form has more than {MAX_PARTS} parts")
        self.parts.append(_Part())
        self._headers = {}

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        self._headers[self._header_name.lower()] = self._header_value
        self._header_name = self._header_value = b""

    def on_headers_finished(self) -> None:
        part = self.parts[-1]
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        if b"name" not in options:
            raise InvalidRequestError("a form part lacks its Content-Disposition name")
        part.name = _decode(options[b"name"], "form field name")
        if b"filename" in options:
            if part.name != FILE_FIELD:
                raise InvalidRequestError(
                    f"unexpected file in form field {part.name!r}; send it as {FILE_FIELD!r}"
                )
            part.filename = options[b"filename"].decode("utf-8", errors="replace")
            raw_type = self._headers.get(b"content-type")
            part.content_type = raw_type.decode("latin-1") if raw_type else None
        elif part.name == FILE_FIELD:
            raise InvalidRequestError(f"form field {FILE_FIELD!r} must hold a file")

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        part = self.parts[-1]
        limit = self.max_file_bytes if part.filename is not None else MAX_FIELD_BYTES
        if len(part.data) + (end - start) > limit:
            if part.filename is not None:
                raise PayloadTooLargeError(f"upload exceeds the limit of {limit} bytes")
            raise InvalidRequestError(f"form field {part.name!r} exceeds {limit} bytes")
        part.data += data[start:end]

    def on_end(self) -> None:
        self.complete = True

    def form(self) -> UploadForm:
        if not self.complete:
            raise InvalidRequestError("the multipart body ends before its closing boundary")
        files = [p for p in self.parts if p.filename is not None]
        if len(files) != 1:
            raise InvalidRequestError(f"the form needs exactly one {FILE_FIELD!r} file field")
        fields: dict[str, str] = {}
        for p in self.parts:
            if p.filename is None:
                if p.name in fields:
                    raise InvalidRequestError(f"form field {p.name!r} is given twice")
                fields[p.name] = _decode(bytes(p.data), f"form field {p.name!r}")
        (f,) = files
        upload = UploadedFile(filename=f.filename, content_type=f.content_type, data=bytes(f.data))
        return UploadForm(file=upload, fields=fields)


def _decode(raw: bytes, where: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRequestError(f"{where} is not UTF-8 text") from None
    reject_nul(text, where)
    return text


def check_declared_size(request: Request, max_file_bytes: int) -> None:
    """413 from the headers alone when the declared body cannot fit (nothing read yet)."""
    declared = request.headers.get("content-length")
    if declared is None:
        return
    if not declared.isdigit():
        raise InvalidRequestError(f"bad Content-Length {declared[:40]!r}")
    if int(declared) > max_file_bytes + FORM_OVERHEAD_BYTES:
        raise PayloadTooLargeError(
            f"upload of {declared} bytes exceeds the limit of {max_file_bytes} bytes"
        )


async def read_upload_form(request: Request, max_file_bytes: int) -> UploadForm:
    """The form's one file and its text fields; 413 as soon as the limit is passed, 422 for a
    form that is not multipart or is malformed."""
    mime, params = parse_options_header(request.headers.get("content-type", ""))
    if mime != b"multipart/form-data" or not params.get(b"boundary"):
        raise InvalidRequestError(
            f"uploads must be multipart/form-data with a {FILE_FIELD!r} field"
        )
    check_declared_size(request, max_file_bytes)
    max_body = max_file_bytes + FORM_OVERHEAD_BYTES
    collector = _Collector(max_file_bytes)
    parser = MultipartParser(params[b"boundary"], collector.callbacks())  # type: ignore[arg-type]
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > max_body:
                raise PayloadTooLargeError(
                    f"upload body passed {max_body} bytes (limit {max_file_bytes} for the file)"
                )
            parser.write(chunk)
        parser.finalize()
    except FormParserError as exc:
        raise InvalidRequestError(f"malformed multipart body: {exc}") from None
    return collector.form()
