"""Agent hosts' hook formats: a host's payload as a guard request, the guard's verdict as the host's document."""
