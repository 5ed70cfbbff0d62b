"""The world's virtual shell: the allowlist of what is proven against real bash, the gate that refuses
the rest, bashkit running a line over the world's known files, and the outcome it computes.

It stands over world/ (it computes from the record of knowledge alone) and imports programs/ and reading/;
nothing else in domains/shell imports it.
"""
