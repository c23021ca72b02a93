// Documents: upload by button or drag-and-drop, the list with status, delete. Progress has
// three stages: the bytes going up (XHR progress), the server parsing and chunking (until it
// answers), then embedding in the background (`processing` documents report
// `num_chunks_embedded` of `num_chunks`; the list is polled until none is processing).

const POLL_MS = 1000;

import { api, uploadFile } from "../api.js";
import { $, el, formatBytes, toast } from "../dom.js";

export class Documents {
  constructor(dropTarget) {
    this.list = $("document-list");
    this.uploads = $("upload-list");
    this.overlay = $("drop-overlay");
    this.documents = [];
    this.timer = 0;
    const input = $("file-input");
    input.addEventListener("change", () => {
      this.uploadAll([...input.files]);
      input.value = "";
    });
    this.bindDrop(dropTarget);
  }

  bindDrop(target) {
    let depth = 0;
    const hasFiles = (event) => [...(event.dataTransfer?.types || [])].includes("Files");
    target.addEventListener("dragenter", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth += 1;
      this.overlay.hidden = false;
    });
    target.addEventListener("dragover", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    });
    target.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) this.overlay.hidden = true;
    });
    target.addEventListener("drop", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      this.overlay.hidden = true;
      this.uploadAll([...event.dataTransfer.files]);
    });
  }

  async refresh() {
    clearTimeout(this.timer);
    try {
      const data = await api("GET", "/api/documents");
      this.documents = data.documents;
      this.render();
    } catch (error) {
      if (error.status !== 401) toast(error.message, "error");
      return;
    }
    if (this.documents.some((doc) => doc.status === "processing")) {
      this.timer = setTimeout(() => this.refresh(), POLL_MS);
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.documents = [];
    this.uploads.replaceChildren();
  }

  uploadAll(files) {
    for (const file of files) this.upload(file);
  }

  async upload(file) {
    const bar = el("progress", { max: 1, value: 0 });
    const state = el("span", { class: "upload-state", text: "Uploading…" });
    const row = el("li", { class: "upload" },
      el("span", { class: "doc-name", text: file.name, title: file.name }), state, bar);
    this.uploads.append(row);
    try {
      await uploadFile(file, (fraction) => {
        bar.value = fraction;
        if (fraction >= 1) {
          // All bytes sent: the server is parsing, chunking and embedding now.
          bar.removeAttribute("value");
          state.textContent = "Reading…";
        }
      });
      row.remove();
      await this.refresh();
    } catch (error) {
      bar.remove();
      row.classList.add("failed");
      state.textContent = `Failed: ${error.message}`;
      row.append(el("button", { type: "button", class: "icon-button", text: "×",
        "aria-label": "Dismiss", onclick: () => row.remove() }));
    }
  }

  async remove(doc) {
    if (!confirm(`Delete the document “${doc.filename}”?`)) return;
    try {
      await api("DELETE", `/api/documents/${doc.id}`);
    } catch (error) {
      toast(error.message, "error");
      return;
    }
    await this.refresh();
  }

  item(doc) {
    const processing = doc.status === "processing";
    const embedded = doc.num_chunks_embedded ?? 0;
    const meta = processing ? `Indexing ${embedded} of ${doc.num_chunks} chunks`
      : `${doc.num_chunks} chunk${doc.num_chunks === 1 ? "" : "s"} · ` +
        formatBytes(doc.size_bytes);
    return el("li", { class: "document", dataset: { id: doc.id, status: doc.status } },
      el("span", { class: "doc-name", text: doc.filename, title: doc.filename }),
      el("span", { class: `doc-status status-${doc.status}`, text: doc.status }),
      el("button", { type: "button", class: "icon-button delete",
        "aria-label": `Delete ${doc.filename}`, title: "Delete", text: "×",
        onclick: () => this.remove(doc) }),
      el("span", { class: "doc-meta", text: meta }),
      processing ? el("progress", { max: Math.max(doc.num_chunks, 1), value: embedded }) : null,
      doc.status === "failed" && doc.error
        ? el("span", { class: "doc-error", text: doc.error }) : null);
  }

  render() {
    const items = this.documents.map((doc) => this.item(doc));
    if (items.length === 0) items.push(el("li", { class: "hint", text: "No documents" }));
    this.list.replaceChildren(...items);
  }
}
