"""Timed comparisons: ddsolver against DDS, and ddsolver called in different ways."""
