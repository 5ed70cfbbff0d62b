"""Real agent sessions as data: host transcripts read into worlds of real steps, secrets redacted,
each session on a fixed side of the train/test split."""
