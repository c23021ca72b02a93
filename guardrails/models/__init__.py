"""Packaged models the rails run: the NanoGuard injection transformer, its BPE tokenizer and
the logistic heads fitted over MiniLM embeddings."""
