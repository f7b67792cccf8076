"""``python -m ginrummy`` runs the ``ginrummy`` command."""

from .cli import main

main()
