"""The ``ginrummy`` subcommands, one module each; :mod:`ginrummy.cli` lists them."""
