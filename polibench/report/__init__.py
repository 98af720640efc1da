"""Human-readable reports built from a results document (never from the model or the samples directly)."""
