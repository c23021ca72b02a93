"""Judge an upload's type from its bytes, the way browsers sniff: magic numbers first."""

from __future__ import annotations

import io
import zipfile

from retrieval.errors import DocumentTooLargeError, UnreadableDocumentError
from retrieval.limits import ParseLimits

# Content kinds: the text family ("text", "html") can be decoded; the rest are containers.
PDF, DOCX, ZIP, HTML, TEXT, BINARY = "pdf", "docx", "zip", "html", "text", "binary"

# Tags whose presence at the start of a text marks it as HTML (the WHATWG sniffing list).
_HTML_OPENERS = (
    "<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font",
    "<table", "<a", "<style", "<title", "<b", "<body", "<br", "<p", "<!--",
)  # fmt: skip
_PDF_MAGIC = b"%PDF-"
_ZIP_MAGIC = b"PK\x03\x04"
# PDF readers accept a header within the first KiB (some generators prepend junk).
_PDF_HEADER_WINDOW = 1024


def decode_text(data: bytes) -> str | None:
    """The text of `data` if it is UTF-8 (or UTF-16 with a BOM) without NUL bytes, else None."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            return None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
    return None if "\x00" in text else text


def looks_like_html(text: str) -> bool:
    head = text.lstrip(" \t\r\n\ufeff")[:64].lower()
    for opener in _HTML_OPENERS:
        if head.startswith(opener):
            rest = head[len(opener) : len(opener) + 1]
            # "<a" must be the tag <a ...>, not the start of "<abbr>" or "<apple".
            if opener.startswith("<!") or rest in ("", " ", ">", "\t", "\n", "\r", "/"):
                return True
    return False


def check_zip_limits(archive: zipfile.ZipFile, filename: str, limits: ParseLimits) -> None:
    """Reject a ZIP whose central directory promises too much, before inflating anything.

    zipfile never inflates an entry past its declared size, so checking declared sizes bounds
    the work even when the archive lies about them.
    """
    entries = archive.infolist()
    if len(entries) > limits.max_zip_entries:
        raise DocumentTooLargeError(
            filename,
            f"archive has {len(entries)} entries, over the limit of {limits.max_zip_entries}",
        )
    total = sum(e.file_size for e in entries)
    if total > limits.max_uncompressed_bytes:
        raise DocumentTooLargeError(
            filename,
            f"archive would expand to {total} bytes, over the limit of "
            f"{limits.max_uncompressed_bytes}",
        )
    for e in entries:
        ratio = e.file_size / max(e.compress_size, 1)
        if e.file_size > 1024 * 1024 and ratio > limits.max_compression_ratio:
            raise DocumentTooLargeError(
                filename,
                f"archive entry {e.filename!r} expands {ratio:.0f}x, over the limit of "
                f"{limits.max_compression_ratio:.0f}x",
            )


def sniff(data: bytes, filename: str, limits: ParseLimits) -> str:
    """One of PDF, DOCX, ZIP, HTML, TEXT, BINARY. A ZIP is opened (directory only) to tell a
    DOCX from other archives, so its limits are enforced here."""
    if _PDF_MAGIC in data[:_PDF_HEADER_WINDOW]:
        return PDF
    if data.startswith(_ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                check_zip_limits(archive, filename, limits)
                names = set(archive.namelist())
        except zipfile.BadZipFile as exc:
            raise UnreadableDocumentError(filename, f"broken ZIP container: {exc}") from exc
        return DOCX if "word/document.xml" in names else ZIP
    text = decode_text(data)
    if text is None:
        return BINARY
    return HTML if looks_like_html(text) else TEXT
