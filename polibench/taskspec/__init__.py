"""Task specs: the YAML schema and the loader that builds a registry of tasks."""
