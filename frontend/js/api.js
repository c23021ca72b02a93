// HTTP calls to the server (PROTOCOL.md). Auth rides on the HttpOnly session cookie, so the
// page never holds a token that script could leak.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const unauthorized = new EventTarget();

async function errorOf(response) {
  let code = "http_" + response.status;
  let message = `${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    }
  } catch {
    // Not the JSON error shape (e.g. a proxy's page): keep the status line.
  }
  return new ApiError(response.status, code, message);
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !path.startsWith("/api/auth/")) {
      unauthorized.dispatchEvent(new Event("unauthorized"));
    }
    throw error;
  }
  if (response.status === 204) return null;
  return response.json();
}

// Uploads through XMLHttpRequest because fetch reports no upload progress. `onProgress`
// gets the fraction sent (0..1); once all bytes are sent the server parses and indexes.
export function uploadFile(file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    xhr.withCredentials = true;
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.upload.addEventListener("load", () => onProgress(1));
    xhr.addEventListener("load", () => {
      const body = xhr.response;
      if (xhr.status === 201) {
        resolve(body);
        return;
      }
      if (xhr.status === 401) unauthorized.dispatchEvent(new Event("unauthorized"));
      const error = body && body.error ? body.error : {};
      reject(new ApiError(xhr.status, error.code || "http_" + xhr.status,
        error.message || `upload failed with status ${xhr.status}`));
    });
    xhr.addEventListener("error", () => {
      reject(new ApiError(0, "network", "the upload was interrupted"));
    });
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
