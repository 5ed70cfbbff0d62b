"""The guard: a host's tool call as a domain action, the policy and its zero-token verdict, what the real
workspace says a loss costs, the session's world, and the pre and post checks around a real call. It
may import every other folder of the tools; nothing there imports it."""
