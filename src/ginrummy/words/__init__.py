"""What the table says, in plain words, above the engine: a hand's result explained
(:mod:`.explain`), score sheets (:mod:`.sheet`), the cheat sheet of a rule set
(:mod:`.cheatsheet`) and the rule for players' names (:mod:`.names`)."""
