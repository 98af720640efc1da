"""The polibench command line."""
