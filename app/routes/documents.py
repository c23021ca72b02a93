"""/api/documents: upload (parsed now, embedded in the background), list, delete — own only.

An upload is answered 201 with status `processing` once its text is parsed, chunked and
stored; embedding and indexing follow in a background job, whose progress the list shows
(`num_chunks_embedded` of `num_chunks`) until the status becomes `ready` or `failed`.
"""

from __future__ import annotations

import hashlib

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db import conversations, documents
from app.db.models import Document
from app.errors import InvalidRequestError, UnavailableError
from app.hooks import DocumentIngestor, StoredDocument
from app.http import json_response, require_user, state_of
from app.state import AppState
from app.textcheck import is_id
from app.uploads import read_upload_form
from app.views import document_json


def _ingestor(state: AppState) -> DocumentIngestor:
    ingestor = state.hooks.documents
    if ingestor is None or not state.settings.retrieval.enabled:
        raise UnavailableError("document retrieval is not enabled on this server")
    return ingestor


def _num_embedded(state: AppState, doc: Document) -> int:
    if doc.status == "ready":
        return doc.num_chunks
    if doc.status == "processing":
        return state.ingestion.num_embedded(doc.id) or 0
    return 0


async def upload_document(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    ingestor = _ingestor(state)
    form = await read_upload_form(request, state.settings.limits.max_upload_bytes)
    unknown = sorted(set(form.fields) - {"conversation_id"})
    if unknown:
        raise InvalidRequestError(f"unknown form fields {unknown}")
    conversation_id = form.fields.get("conversation_id") or None
    if conversation_id is not None:
        if not is_id(conversation_id):
            raise InvalidRequestError(f"bad conversation_id {conversation_id[:80]!r}")
        async with state.db.session() as s:
            await conversations.get_conversation(s, user.id, conversation_id)
    data = form.file.data
    upload = await ingestor.prepare(form.file.filename, data)
    async with state.db.session() as s:
        doc, chunk_ids = await documents.create_document(
            s, user_id=user.id, conversation_id=conversation_id, upload=upload,
            size_bytes=len(data), sha256=hashlib.sha256(data).hexdigest(),
        )
    state.ingestion.submit(ingestor, StoredDocument(
        document_id=doc.id, user_id=user.id, conversation_id=conversation_id,
        filename=doc.filename, content_type=doc.content_type, chunks=upload.chunks,
        chunk_ids=tuple(chunk_ids),
    ))
    return json_response(document_json(doc, num_embedded=0), status=201)


async def list_documents(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    async with state.db.session() as s:
        rows = await documents.list_documents(s, user.id)
    return json_response({
        "documents": [document_json(d, num_embedded=_num_embedded(state, d)) for d in rows]
    })


async def delete_document(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    document_id = request.path_params["id"]
    async with state.db.session() as s:
        chunk_ids = await documents.delete_document(s, user.id, document_id)
    state.ingestion.stop([document_id])
    if state.hooks.documents is not None:
        await state.hooks.documents.remove(chunk_ids)
    return Response(status_code=204)


routes = [
    Route("/api/documents", upload_document, methods=["POST"]),
    Route("/api/documents", list_documents, methods=["GET"]),
    Route("/api/documents/{id}", delete_document, methods=["DELETE"]),
]
