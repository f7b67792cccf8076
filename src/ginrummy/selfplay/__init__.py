"""Computer players against each other, many times: one hand or match (:mod:`.play`), batches
on local processes (:mod:`.simulate`) or on Ray (:mod:`.distributed`), their summaries and
figures (:mod:`.summary`, :mod:`.plot`), the Parquet dataset of hands (:mod:`.dataset`),
round robins (:mod:`.tournament`) and the statistics under them (:mod:`.stats`)."""

from __future__ import annotations

from .play import MAX_HANDS, play_hand, play_match

__all__ = ["MAX_HANDS", "play_hand", "play_match"]
