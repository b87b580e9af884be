"""pytest-benchmark suites: ddsolver's solver and DDS on the same items (see
``benchmarks/NOTES.md``)."""
