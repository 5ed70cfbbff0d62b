"""Measurement: the speed benchmark (bench), the soak test, the start-up probe, and the
llama-server the tests and the bench run against."""
