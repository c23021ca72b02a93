"""Upload bytes + file name -> ParsedDocument, with the type judged by content.

The extension names what the user claims; the bytes decide. A claim the bytes contradict
(a PDF named .docx, a binary named .txt) is refused as UnsupportedTypeError. Within the text
family the content decides between HTML and plain text, except that .md stays Markdown.
"""

from __future__ import annotations

from retrieval import extractors, sniffing
from retrieval.errors import DocumentTooLargeError, UnreadableDocumentError, UnsupportedTypeError
from retrieval.filenames import extension_of, safe_display_name
from retrieval.limits import ParseLimits
from retrieval.types import ParsedDocument, TextSection

# Extension -> the kinds of content it may hold.
_CLAIMS: dict[str, frozenset[str]] = {
    "txt": frozenset({sniffing.TEXT, sniffing.HTML}),
    "text": frozenset({sniffing.TEXT, sniffing.HTML}),
    "md": frozenset({sniffing.TEXT, sniffing.HTML}),
    "markdown": frozenset({sniffing.TEXT, sniffing.HTML}),
    "html": frozenset({sniffing.TEXT, sniffing.HTML}),
    "htm": frozenset({sniffing.TEXT, sniffing.HTML}),
    "pdf": frozenset({sniffing.PDF}),
    "docx": frozenset({sniffing.DOCX}),
}
SUPPORTED_EXTENSIONS = tuple(sorted(_CLAIMS))
_CONTENT_NAMES = {
    sniffing.PDF: "a PDF",
    sniffing.DOCX: "a Word document",
    sniffing.ZIP: "a ZIP archive that is not a Word document",
    sniffing.HTML: "HTML",
    sniffing.TEXT: "plain text",
    sniffing.BINARY: "binary data (not UTF-8 text)",
}


def parse_document(
    data: bytes, filename: str | None, limits: ParseLimits | None = None
) -> ParsedDocument:
    """Extract the text of an upload.

    Raises UnsupportedTypeError (type not supported, or content contradicting the extension),
    UnreadableDocumentError (empty, encrypted, broken, no text) or its subclass
    DocumentTooLargeError (over a limit, zip bomb).
    """
    limits = limits or ParseLimits()
    name = safe_display_name(filename)
    ext = extension_of(name)
    if ext and ext not in _CLAIMS:
        raise UnsupportedTypeError(
            f"{name!r}: unsupported file type '.{ext}' "
            f"(supported: {', '.join('.' + e for e in SUPPORTED_EXTENSIONS)})"
        )
    if len(data) > limits.max_bytes:
        raise DocumentTooLargeError(
            name, f"{len(data)} bytes, over the limit of {limits.max_bytes}"
        )
    if not data.strip():
        raise UnreadableDocumentError(name, "the file is empty")
    content = sniffing.sniff(data, name, limits)
    if ext and content not in _CLAIMS[ext]:
        raise UnsupportedTypeError(
            f"{name!r}: the name says '.{ext}' but the content is {_CONTENT_NAMES[content]}"
        )
    if content in (sniffing.ZIP, sniffing.BINARY):
        raise UnsupportedTypeError(f"{name!r}: unsupported content, {_CONTENT_NAMES[content]}")

    kind, sections = _extract(data, name, ext, content, limits)
    sections = [s for s in sections if s.text]
    if not sections:
        raise UnreadableDocumentError(name, "no text found")
    total = sum(len(s.text) for s in sections)
    if total > limits.max_text_chars:
        raise DocumentTooLargeError(
            name, f"{total} characters of text, over the limit of {limits.max_text_chars}"
        )
    return ParsedDocument(display_name=name, kind=kind, sections=tuple(sections))


def _extract(
    data: bytes, name: str, ext: str, content: str, limits: ParseLimits
) -> tuple[str, list[TextSection]]:
    if content == sniffing.PDF:
        return "pdf", extractors.pdf_text(data, name, limits)
    if content == sniffing.DOCX:
        return "docx", extractors.docx_text(data, name)
    text = sniffing.decode_text(data)
    assert text is not None  # sniff() only says TEXT/HTML for decodable data
    if ext in ("md", "markdown"):
        return "markdown", extractors.plain_text(text)
    if ext in ("html", "htm") or content == sniffing.HTML:
        return "html", extractors.html_text(text)
    return "text", extractors.plain_text(text)
