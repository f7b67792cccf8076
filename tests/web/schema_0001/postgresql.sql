CREATE TABLE players (
	id SERIAL NOT NULL,
	token_hash VARCHAR(64) NOT NULL,
	name VARCHAR(40) NOT NULL,
	created_at TIMESTAMP WITHOUT TIME ZONE NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_players_token_hash ON players (token_hash);

CREATE TABLE matches (
	id VARCHAR(32) NOT NULL,
	player_id INTEGER NOT NULL,
	level VARCHAR(20) NOT NULL,
	profile VARCHAR(20) NOT NULL,
	rules VARCHAR(400) NOT NULL,
	hollywood BOOLEAN NOT NULL,
	status VARCHAR(12) NOT NULL,
	version INTEGER NOT NULL,
	deal_seed VARCHAR(64) NOT NULL,
	hands_played INTEGER NOT NULL,
	score_0 INTEGER NOT NULL,
	score_1 INTEGER NOT NULL,
	winner INTEGER,
	created_at TIMESTAMP WITHOUT TIME ZONE NOT NULL,
	updated_at TIMESTAMP WITHOUT TIME ZONE NOT NULL,
	record TEXT NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE INDEX ix_matches_player_id ON matches (player_id);

CREATE INDEX ix_matches_status ON matches (status);

CREATE INDEX ix_matches_updated_at ON matches (updated_at);

CREATE TABLE hands (
	match_id VARCHAR(32) NOT NULL,
	number INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	kind VARCHAR(12) NOT NULL,
	winner_seat INTEGER,
	knocker_seat INTEGER,
	knocker_deadwood INTEGER NOT NULL,
	defender_deadwood INTEGER NOT NULL,
	points INTEGER NOT NULL,
	PRIMARY KEY (match_id, number),
	FOREIGN KEY(match_id) REFERENCES matches (id),
	FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE INDEX ix_hands_player_id ON hands (player_id);

CREATE TABLE match_seals (
	match_id VARCHAR(32) NOT NULL,
	state TEXT NOT NULL,
	PRIMARY KEY (match_id),
	FOREIGN KEY(match_id) REFERENCES matches (id)
);

CREATE TABLE coach_notes (
	match_id VARCHAR(32) NOT NULL,
	hand INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	data TEXT NOT NULL,
	created_at TIMESTAMP WITHOUT TIME ZONE NOT NULL,
	PRIMARY KEY (match_id, hand, idx)
);
