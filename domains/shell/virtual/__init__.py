"""The world's virtual shell: the allowlist of what is proven against real bash, the gate that refuses
the rest, bashkit running a line over the world's known files, and the screen it computes."""
