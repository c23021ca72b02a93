"""Uploads of every supported type parse to the expected text; bad uploads get typed errors."""

from __future__ import annotations

import pytest

from retrieval.errors import DocumentTooLargeError, UnreadableDocumentError, UnsupportedTypeError
from retrieval.filenames import safe_display_name
from retrieval.limits import ParseLimits
from retrieval.parsing import parse_document
from retrieval.types import TextSection
from tests.retrieval.documents import make_docx, make_pdf, make_zip

HTML_PAGE = b"""<!DOCTYPE html>
<html><head><title>Kiln manual</title><style>p { color: red }</style>
<script>alert("never indexed")</script></head>
<body><h1>Firing</h1><p>Heat the kiln <b>slowly</b> to 900 degrees.</p>
<ul><li>Vent the lid</li><li>Wait</li></ul><noscript>enable js</noscript>
<div>Line one<br>Line two</div></body></html>"""


def test_plain_text_is_normalized() -> None:
    doc = parse_document(
        b"\xef\xbb\xbfFirst  line\r\nsecond\tline\r\n\r\n\r\n\r\nNext para.\n", "a.txt"
    )
    assert doc.kind == "text"
    assert doc.display_name == "a.txt"
    assert doc.sections == (TextSection("First line\nsecond line\n\nNext para."),)


def test_markdown_keeps_its_text() -> None:
    doc = parse_document(b"# Title\n\n- item *one*\n- item two\n", "notes.md")
    assert doc.kind == "markdown"
    assert doc.text == "# Title\n\n- item *one*\n- item two"


def test_html_drops_scripts_and_styles_and_keeps_blocks() -> None:
    doc = parse_document(HTML_PAGE, "manual.html")
    assert doc.kind == "html"
    assert doc.text == (
        "Kiln manual\n\nFiring\n\nHeat the kiln slowly to 900 degrees.\n\n"
        "Vent the lid\n\nWait\n\nLine one\nLine two"
    )


def test_deeply_nested_html_parses_in_linear_time() -> None:
    depth = 20_000
    markup = b"<html><body>" + b"<div>" * depth + b"deep" + b"</div>" * depth + b"</body></html>"
    assert parse_document(markup, "deep.html").text == "deep"


def test_html_content_in_a_txt_file_is_read_as_html() -> None:
    doc = parse_document(b"<html><body><p>Hi</p><script>x()</script></body></html>", "page.txt")
    assert (doc.kind, doc.text) == ("html", "Hi")


def test_utf16_text_with_bom() -> None:
    doc = parse_document("Grüße aus Köln".encode("utf-16"), "greeting.txt")
    assert doc.text == "Grüße aus Köln"


def test_pdf_pages_keep_their_numbers_and_skip_empty_pages() -> None:
    data = make_pdf(["Hello page one.", "", "Third (page) text."])
    doc = parse_document(data, "report.pdf")
    assert doc.kind == "pdf"
    assert doc.sections == (
        TextSection("Hello page one.", page=1),
        TextSection("Third (page) text.", page=3),
    )
    assert doc.text == "Hello page one.\n\nThird (page) text."


def test_pdf_encrypted_with_a_user_password_is_unreadable() -> None:
    with pytest.raises(UnreadableDocumentError, match="password-protected") as info:
        parse_document(make_pdf(["secret"], user_password="pw"), "locked.pdf")
    assert info.value.filename == "locked.pdf"


def test_pdf_encrypted_with_an_empty_user_password_opens() -> None:
    assert parse_document(make_pdf(["open text"], user_password=""), "x.pdf").text == "open text"


def test_pdf_without_text_is_unreadable() -> None:
    with pytest.raises(UnreadableDocumentError, match="no extractable text"):
        parse_document(make_pdf(["", ""]), "scan.pdf")


def test_truncated_pdf_is_unreadable() -> None:
    with pytest.raises(UnreadableDocumentError):
        parse_document(b"%PDF-1.7\n1 0 obj << /Type /Catalog", "broken.pdf")


def test_pdf_over_the_page_limit() -> None:
    with pytest.raises(DocumentTooLargeError, match="3 pages, over the limit of 2"):
        parse_document(make_pdf(["a", "b", "c"]), "long.pdf", ParseLimits(max_pages=2))


def test_docx_paragraphs_and_tables() -> None:
    data = make_docx(["Title", "First paragraph.", "Second one."], [["k", "v"], ["a", "1"]])
    doc = parse_document(data, "memo.docx")
    assert doc.kind == "docx"
    assert doc.text == "Title\n\nFirst paragraph.\n\nSecond one.\n\nk | v\na | 1"


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (make_pdf(["x"]), "report.docx", "name says '.docx' but the content is a PDF"),
        (b"just text", "report.pdf", "name says '.pdf' but the content is plain text"),
        (make_docx(["T", "p"]), "memo.txt", "name says '.txt' but the content is a Word"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.txt", "binary data"),
        (b"\xff\xfe\xfd not utf-8 \x80", "notes.md", "binary data"),
        (make_zip({"a.txt": b"hello"}), "archive.docx", "ZIP archive that is not a Word"),
        (make_zip({"a.txt": b"hello"}), "archive", "ZIP archive that is not a Word"),
        (b"MZ\x90\x00\x03\x00\x00\x00", "tool", "binary data"),
        (b"hello", "program.exe", "unsupported file type '.exe'"),
        (b"a,b\n1,2\n", "table.csv", "unsupported file type '.csv'"),
    ],
)
def test_wrong_or_unsupported_types_are_refused(data: bytes, filename: str, message: str) -> None:
    with pytest.raises(UnsupportedTypeError, match=message):
        parse_document(data, filename)


def test_content_decides_when_there_is_no_extension() -> None:
    assert parse_document(make_pdf(["p"]), "upload").kind == "pdf"
    assert parse_document(b"<!doctype html><p>x</p>", "upload").kind == "html"
    assert parse_document(b"plain", None).kind == "text"


@pytest.mark.parametrize("data", [b"", b"   \n\t  \r\n"])
def test_empty_files_are_unreadable(data: bytes) -> None:
    with pytest.raises(UnreadableDocumentError, match="the file is empty"):
        parse_document(data, "empty.txt")


def test_html_without_text_is_unreadable() -> None:
    with pytest.raises(UnreadableDocumentError, match="no text found"):
        parse_document(b"<html><script>only()</script></html>", "blank.html")


def test_zip_bomb_renamed_docx_is_rejected_before_inflating() -> None:
    # 20 MB of zeros deflates about 1000x: far past any real DOCX part.
    bomb = make_zip({"word/document.xml": b"\0" * 20_000_000, "[Content_Types].xml": b"<x/>"})
    assert len(bomb) < 100_000
    with pytest.raises(DocumentTooLargeError, match="expands \\d+x, over the limit of 200x"):
        parse_document(bomb, "invoice.docx")


def test_zip_with_too_many_entries_or_bytes_is_rejected() -> None:
    many = make_zip({f"word/part{i}.xml": b"<p/>" for i in range(11)} | {"word/document.xml": b""})
    with pytest.raises(DocumentTooLargeError, match="12 entries, over the limit of 10"):
        parse_document(many, "many.docx", ParseLimits(max_zip_entries=10))
    big = make_docx(["Title", "x" * 5000])
    with pytest.raises(DocumentTooLargeError, match="would expand to \\d+ bytes"):
        parse_document(big, "big.docx", ParseLimits(max_uncompressed_bytes=1000))


def test_broken_docx_is_unreadable() -> None:
    fake = make_zip({"word/document.xml": b"<not-closed", "[Content_Types].xml": b"junk"})
    with pytest.raises(UnreadableDocumentError, match="broken DOCX"):
        parse_document(fake, "fake.docx")


def test_upload_over_the_byte_limit() -> None:
    with pytest.raises(DocumentTooLargeError, match="11 bytes, over the limit of 10"):
        parse_document(b"0123456789A", "a.txt", ParseLimits(max_bytes=10))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\windows\\system32\\boot.ini", "boot.ini"),
        ("/abs/path/report.pdf", "report.pdf"),
        ("a\x00b\nc.txt", "abc.txt"),
        ("\u202egnp.exe", "gnp.exe"),  # right-to-left override stripped
        ("..", "document"),
        ("...", "document"),
        ("", "document"),
        (None, "document"),
        ("  .hidden notes.md ", "hidden notes.md"),
        ("dir/", "document"),
        ("x" * 300 + ".pdf", "x" * 251 + ".pdf"),
        ("Résumé\u00a0final.docx", "Résumé final.docx"),
    ],
)
def test_safe_display_name(raw: str | None, expected: str) -> None:
    assert safe_display_name(raw) == expected


def test_parsed_name_never_carries_a_path() -> None:
    doc = parse_document(b"hello", "../../../tmp/evil.txt")
    assert doc.display_name == "evil.txt"
