"""The rules engine: everything a referee of gin rummy needs, and nothing else of ginrummy's.

Cards as ints and bitmasks (:mod:`.cards`), melds and the exact solver (:mod:`.melds`,
:mod:`.solve`), settling a hand (:mod:`.settle`), the rule profiles (:mod:`.rules`), moves and
what a seat may see (:mod:`.move`, :mod:`.events`, :mod:`.legal`, :mod:`.view`), the hand and
the match (:mod:`.hand`, :mod:`.match`), records (:mod:`.record`), sealed deals
(:mod:`.shuffle`, :mod:`.sealer`, :mod:`.verify`), the table that seats two players
(:mod:`.table`, :mod:`.player`), and the compiled core's switch (:mod:`.native`;
:mod:`.develop` is compiled with the core, for the players). It imports nothing from the other
layers; ``ginrummy`` re-exports its public names.
"""
