"""Measuring how right the world model is: one-step predictions against recorded observations."""
