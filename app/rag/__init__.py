"""The retrieval package plugged into the app: settings -> Retriever, the upload ingestor and
the chat turn's document search. Importing this loads torch and FAISS; app.main imports it
only when retrieval is enabled."""
