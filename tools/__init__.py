"""What the MCP tools do, without the MCP SDK: the shared modules here (the context every tool runs on,
the requests and results, the constraints, the limits and modes, jobs) and four folders by concept:
worlds/ (worlds and what they know), simulation/ (predicting actions and plans), guard/ (checking a
host's real calls) and data/ (real sessions as data). Those here import no folder at run time."""
