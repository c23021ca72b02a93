"""/api/documents: upload (through the retrieval seam), list and delete — own only."""

from __future__ import annotations

import hashlib

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db import conversations, documents
from app.db.models import Chunk, Document
from app.errors import InvalidRequestError, PayloadTooLargeError, UnavailableError
from app.http import json_response, require_user, state_of
from app.views import document_json


async def upload_document(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    limit = state.settings.limits.max_upload_bytes
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit + 64 * 1024:
        raise PayloadTooLargeError(f"upload of {declared} bytes exceeds {limit} bytes")
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise InvalidRequestError("uploads must be multipart/form-data with a 'file' field")
    async with request.form(max_files=1, max_fields=4, max_part_size=limit) as form:
        file = form.get("file")
        conversation_id = form.get("conversation_id") or None
        if not isinstance(file, UploadFile):
            raise InvalidRequestError("the form needs a 'file' field holding a file")
        if conversation_id is not None and not isinstance(conversation_id, str):
            raise InvalidRequestError("conversation_id must be a text field")
        data = await file.read(limit + 1)
        # Display only (never a path); PostgreSQL text cannot hold NUL.
        filename = (file.filename or "upload").replace("\x00", "")[:255] or "upload"
        content_type = (file.content_type or "application/octet-stream").replace("\x00", "")
    if len(data) > limit:
        raise PayloadTooLargeError(f"upload exceeds {limit} bytes")
    if conversation_id is not None:
        async with state.db.session() as s:
            await conversations.get_conversation(s, user.id, conversation_id)
    ingestor = state.hooks.documents
    if ingestor is None or not state.settings.retrieval.enabled:
        raise UnavailableError("document retrieval is not enabled on this server")
    drafts = await ingestor.prepare(filename, data)
    async with state.db.session() as s:
        doc = Document(
            user_id=user.id, conversation_id=conversation_id, filename=filename[:255],
            content_type=content_type[:100], size_bytes=len(data),
            sha256=hashlib.sha256(data).hexdigest(), status="ready", num_chunks=len(drafts),
        )
        s.add(doc)
        await s.flush()
        rows = [
            Chunk(document_id=doc.id, ordinal=d.ordinal, text=d.text, page=d.page,
                  char_start=d.char_start, char_end=d.char_end)
            for d in drafts
        ]
        s.add_all(rows)
        await s.flush()
        chunk_pairs = [(row.id, row.text) for row in rows]
        data_json = document_json(doc)
    await ingestor.index(user.id, conversation_id, chunk_pairs)
    return json_response(data_json, status=201)


async def list_documents(request: Request) -> Response:
    user = await require_user(request)
    async with state_of(request).db.session() as s:
        rows = await documents.list_documents(s, user.id)
        return json_response({"documents": [document_json(d) for d in rows]})


async def delete_document(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    async with state.db.session() as s:
        chunk_ids = await documents.delete_document(s, user.id, request.path_params["id"])
    if state.hooks.documents is not None and chunk_ids:
        await state.hooks.documents.remove(chunk_ids)
    return Response(status_code=204)


routes = [
    Route("/api/documents", upload_document, methods=["POST"]),
    Route("/api/documents", list_documents, methods=["GET"]),
    Route("/api/documents/{id}", delete_document, methods=["DELETE"]),
]
