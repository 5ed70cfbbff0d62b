"""Data about real sessions: secrets redacted before a step is kept, train/test splits by session, the
similarity of two observations, and the retrieval of real steps as examples. It imports none of the
worlds, the simulation or the guard (the store it reads is only a type to it)."""
