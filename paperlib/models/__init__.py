"""One module per paper model; functions are named after the quantity they return."""
