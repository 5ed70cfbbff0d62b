"""The guards in front of `env serve`'s OpenEnv app: Host allowlist, bearer token and body bound."""

from __future__ import annotations

import pytest
from agentworld_mcp.server.surface.env_serving import BearerToken, BodyLimit, OriginCheck, allowed_hosts
from agentworld_mcp.server.surface.http_serving import HttpOptions
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

TOKEN = "t" * 32


async def _echo(request):
    return PlainTextResponse(str(len(await request.body())))


async def _socket(websocket):
    await websocket.accept()
    await websocket.send_text("hello")
    await websocket.close()


def _guarded(limit: int = 1024) -> TestClient:
    app = Starlette(routes=[Route("/step", _echo, methods=["POST"]), Route("/health", _echo),
                            WebSocketRoute("/ws", _socket)])
    return TestClient(BearerToken(BodyLimit(app, limit), TOKEN))


def test_every_request_but_health_needs_the_token():
    client = _guarded()
    refused = client.post("/step", content=b"x")
    assert refused.status_code == 401 and "Bearer" in refused.json()["detail"]
    assert refused.headers["www-authenticate"] == "Bearer"
    assert client.post("/step", content=b"x", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/step", content=b"x", headers={"Authorization": f"Bearer {TOKEN}"}).text == "1"
    assert client.get("/health").status_code == 200


def test_a_websocket_without_the_token_is_closed_before_it_opens():
    client = _guarded()
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws"):
        pass
    assert closed.value.code == 1008
    with client.websocket_connect("/ws", headers={"Authorization": f"Bearer {TOKEN}"}) as socket:
        assert socket.receive_text() == "hello"


def test_a_body_past_the_bound_is_refused_before_the_app_reads_it():
    client = _guarded(limit=8)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert client.post("/step", content=b"12345678", headers=auth).text == "8"
    too_big = client.post("/step", content=b"123456789", headers=auth)
    assert too_big.status_code == 413 and "8 bytes" in too_big.json()["detail"]


def test_hosts_are_this_machines_names_the_bind_address_and_the_users():
    hosts = allowed_hosts(HttpOptions(host="10.0.0.5", allowed_hosts=("env.example",)))
    assert {"127.0.0.1", "localhost", "10.0.0.5", "env.example"} <= set(hosts)
    assert "evil.example" not in hosts


def test_a_chunked_body_past_the_bound_is_refused_too():
    client = _guarded(limit=8)
    chunks = iter([b"1234", b"5678", b"9"])
    refused = client.post("/step", content=chunks, headers={"Authorization": f"Bearer {TOKEN}"})
    assert refused.status_code == 413


def test_the_health_probe_is_only_a_get():
    client = _guarded()
    assert client.post("/health", content=b"x").status_code == 401


def test_a_page_from_another_origin_cannot_open_a_session():
    app = Starlette(routes=[Route("/step", _echo, methods=["POST"]), WebSocketRoute("/ws", _socket)])
    client = TestClient(OriginCheck(app, ["https://trainer.example"]))
    assert client.post("/step", content=b"x", headers={"Origin": "https://evil.example"}).status_code == 403
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers={"Origin": "https://evil.example"}):
        pass
    for origin in ("http://127.0.0.1:3000", "http://localhost", "https://trainer.example"):
        with client.websocket_connect("/ws", headers={"Origin": origin}) as socket:
            assert socket.receive_text() == "hello"
    assert client.post("/step", content=b"x").status_code == 200  # no Origin: not a browser page
