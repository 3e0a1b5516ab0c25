-- graph/checkpoint/postgres: the checkpoint table. Applied by Saver.Migrate
-- (idempotent), or run it with your own migration tool.
CREATE TABLE IF NOT EXISTS graph_checkpoints (
	thread    text        NOT NULL,
	seq       bigint      NOT NULL,
	parent    bigint      NOT NULL DEFAULT 0,
	step      integer     NOT NULL,
	node      text        NOT NULL DEFAULT '',
	next      text        NOT NULL DEFAULT '',
	version   integer     NOT NULL,
	state     jsonb       NOT NULL,
	interrupt jsonb,
	created   timestamptz NOT NULL,
	PRIMARY KEY (thread, seq)
);
CREATE INDEX IF NOT EXISTS graph_checkpoints_created ON graph_checkpoints (created);
