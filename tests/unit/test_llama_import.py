"""An in-process model without llama-cpp-python installed (the `llama` extra) is a setup error that says what
to install, never an ImportError traceback."""

from __future__ import annotations

import sys

import pytest
from agentworld_mcp.engine.errors import ConfigurationError
from agentworld_mcp.engine.llama_import import llama_cpp


def test_a_missing_llama_cpp_names_the_extra_and_the_model_server_instead(monkeypatch):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # what `import llama_cpp` meets where it is not installed
    with pytest.raises(ConfigurationError) as raised:
        llama_cpp()
    assert "pip install 'agentworld-mcp[llama]'" in str(raised.value) and "--base-url" in str(raised.value)


def test_an_installed_llama_cpp_is_the_module_itself():
    import llama_cpp as installed

    assert llama_cpp() is installed
