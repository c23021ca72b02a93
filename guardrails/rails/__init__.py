"""The rails: each file holds one small unit with one job."""
