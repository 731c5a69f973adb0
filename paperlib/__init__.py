"""webperf-repro: models, published data and the reproduction ledger of five web-performance papers."""

__version__ = "0.1.0"
