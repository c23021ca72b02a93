"""Model building blocks (torch)."""
