"""Text out of each supported type. Every function returns sections of normalized text."""

from __future__ import annotations

import io
import logging
import re
import unicodedata

from retrieval.errors import DocumentTooLargeError, UnreadableDocumentError
from retrieval.limits import ParseLimits
from retrieval.types import TextSection

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"[^\S\n]+")
_BLANK_RUNS = re.compile(r"\n{3,}")

# Elements whose text is never document content.
_HTML_DROP = frozenset(("script", "style", "noscript", "template", "svg", "canvas", "iframe",
                        "object", "head"))  # fmt: skip
# Elements that end a line or paragraph when rendered.
_HTML_BLOCKS = frozenset((
    "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "blockquote",
    "pre", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "h1", "h2", "h3", "h4", "h5",
    "h6", "figure", "figcaption", "hr", "address", "details", "summary", "title",
))  # fmt: skip


def normalize_text(text: str) -> str:
    """NFC, LF line ends, no control characters, single spaces, at most one blank line."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text.replace("\t", " "))
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def plain_text(text: str) -> list[TextSection]:
    return [TextSection(normalize_text(text))]


def html_text(markup: str) -> list[TextSection]:
    from bs4 import BeautifulSoup, CData, NavigableString, Tag

    soup = BeautifulSoup(markup, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    # An explicit stack rather than recursion or tree edits: both cost depth^2 (or overflow)
    # on deeply nested markup, which an upload may have.
    parts: list[str] = []
    stack: list[tuple[object, bool]] = [(soup, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            parts.append("\n\n")
        elif isinstance(node, Tag):
            if node.name in _HTML_DROP:
                continue
            if node.name == "br":
                parts.append("\n")
                continue
            if node.name in _HTML_BLOCKS:
                parts.append("\n\n")
                stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.contents))
        elif type(node) in (NavigableString, CData):
            parts.append(str(node))
    body = "".join(parts)
    return [TextSection(normalize_text(f"{title}\n\n{body}" if title else body))]


def pdf_text(data: bytes, filename: str, limits: ParseLimits) -> list[TextSection]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    # pypdf logs every recoverable syntax problem; an upload is not worth a log line each.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            # Owner-password-only PDFs open with an empty user password; others cannot be read.
            try:
                opened = reader.decrypt("")
            except (PyPdfError, NotImplementedError) as exc:
                raise UnreadableDocumentError(filename, f"the PDF is encrypted ({exc})") from exc
            if not opened:
                raise UnreadableDocumentError(filename, "the PDF is password-protected")
        num_pages = len(reader.pages)
        if num_pages > limits.max_pages:
            raise DocumentTooLargeError(
                filename, f"{num_pages} pages, over the limit of {limits.max_pages}"
            )
        sections: list[TextSection] = []
        total = 0
        for number, page in enumerate(reader.pages, start=1):
            text = normalize_text(page.extract_text() or "")
            total += len(text)
            if total > limits.max_text_chars:
                raise DocumentTooLargeError(
                    filename, f"more than {limits.max_text_chars} characters of text"
                )
            if text:
                sections.append(TextSection(text, page=number))
    except UnreadableDocumentError:
        raise
    except Exception as exc:  # pypdf raises many unrelated types (and recursion) on bad input
        raise UnreadableDocumentError(filename, f"broken PDF: {exc}") from exc
    if not sections:
        raise UnreadableDocumentError(filename, "the PDF has no extractable text (scanned?)")
    return sections


def docx_text(data: bytes, filename: str) -> list[TextSection]:
    import docx
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
        paragraphs: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                rows = [" | ".join(cell.text.strip() for cell in row.cells) for row in block.rows]
                paragraphs.append("\n".join(r for r in rows if r.strip(" |")))
            else:
                paragraphs.append(block.text)
    except Exception as exc:  # python-docx and lxml raise many unrelated types on bad input
        raise UnreadableDocumentError(filename, f"broken DOCX: {exc}") from exc
    return [TextSection(normalize_text("\n\n".join(p for p in paragraphs if p.strip())))]
