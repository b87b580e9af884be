"""Diagnostics of the search: tree sizes against DDS's, where the move ordering wastes nodes."""
