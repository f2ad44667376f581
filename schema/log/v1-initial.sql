-- The action log. Nothing that says who did what is stored in the clear: the acting user, the
-- scope, the action and its outcome are inside `ciphertext` (XChaCha20-Poly1305), sealed with
-- associated data that binds the log id, the seq, the key id and the previous hash.

-- One row per setting of the log: its id, how its key is held, its signing key.
CREATE TABLE meta (
  name  TEXT PRIMARY KEY NOT NULL,
  value BLOB NOT NULL
) WITHOUT ROWID;

-- One row per action, in order. `seq` is gapless from 1; (client, cseq) is unique so that a
-- client's retried action is kept once. `hash` is the chain hash after this entry.
CREATE TABLE entries (
  seq        INTEGER PRIMARY KEY NOT NULL,
  at_ms      INTEGER NOT NULL,
  client     TEXT NOT NULL,
  cseq       INTEGER NOT NULL,
  nonce      BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  hash       BLOB NOT NULL
);
CREATE UNIQUE INDEX entries_client_cseq ON entries (client, cseq);

-- Signed checkpoints: an Ed25519 signature over (log id, seq, chain head).
CREATE TABLE checkpoints (
  seq       INTEGER PRIMARY KEY NOT NULL,
  head      BLOB NOT NULL,
  signature BLOB NOT NULL
);

-- Encrypted snapshots of the application state at a seq. `state_hash` is a keyed hash, so it
-- says nothing about the state to someone without the key.
CREATE TABLE snapshots (
  seq        INTEGER PRIMARY KEY NOT NULL,
  at_ms      INTEGER NOT NULL,
  nonce      BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  state_hash BLOB NOT NULL
);
