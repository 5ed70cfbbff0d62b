"""Any OpenAI-compatible model server as the world model's backend."""

from .backend import OpenAICompatibleBackend, RemoteSettings, api_root

__all__ = ["OpenAICompatibleBackend", "RemoteSettings", "api_root"]
