"""NeMo Gym 0.7's own package driving `agentworld-mcp env serve --api nemo-gym` (run by the .ci/nemo-gym venv).

    .ci/nemo-gym/bin/python tests/e2e/nemo_gym_driver.py http://127.0.0.1:PORT EPISODES

NeMo Gym's SingleAgentTurnEnvironmentServer runs real episodes against the real server, as in a rollout
collection: it seeds a resources session under its own id, opens a session on an agent, asks the agent for
its turn, verifies, and closes both in its cleanup. The agent here is a scripted policy behind NeMo Gym's own
client-disconnect middleware: it calls the resources server's `/act` route through NeMo Gym's HTTP client with
the tool access the Environment Server granted it. Then: NeMo Gym's session-contract check, a lost session,
and a cancelled episode. Prints one JSON report; any broken expectation is an AssertionError (exit 1).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import uuid
from typing import Any

import httpx
import uvicorn
from environment_servers.single_agent_turn.app import (
    SingleAgentTurnEnvironmentServer,
    SingleAgentTurnEnvironmentServerConfig,
)
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from nemo_gym.base_resources_server import BaseMultiRewardVerifyResponse, ResourcesSeedSessionRequest
from nemo_gym.base_responses_api_agent import (
    AgentCloseSessionRequest,
    AgentCloseSessionResponse,
    AgentSeedSessionRequest,
    AgentSeedSessionResponse,
)
from nemo_gym.config_types import AggregateMetricsRequest, AgentServerRef, BaseServerConfig, ResourcesServerRef
from nemo_gym.episode_types import EpisodeId, MaterializedTask, TaskId
from nemo_gym.openai_utils import NeMoGymResponse
from nemo_gym.server_utils import (
    ClientDisconnectCancellationMiddleware,
    GlobalAIOHTTPAsyncClientConfig,
    ServerClient,
    request,
    set_global_aiohttp_client,
)
from nemo_gym.single_agent_turn_types import SingleAgentTurnRequest, SingleAgentTurnTaskInput
from nemo_gym.testing.session_conformance import check_resources_session_contract
from nemo_gym.tool_access import DirectHTTPToolAccess
from omegaconf import OmegaConf

ACT_TOOL = {"type": "function", "name": "act", "strict": False, "description": "Run one shell command.",
            "parameters": {"type": "object", "properties": {"action": {"type": "string"}}, "required": ["action"]}}
RUN = uuid.uuid4().hex[:8]  # ids of this run, so a second run against the same server seeds new ones
SLOW_ACTION = "python3 train.py --epochs 50"  # the world cannot compute it: the model predicts, which takes a while


class ScriptedAgent:
    """A NeMo Gym agent server's session routes, with a policy that plays the actions its task lists."""

    def __init__(self) -> None:
        self.grants: dict[str, DirectHTTPToolAccess] = {}
        self.cookies: dict[str, dict[str, str]] = {}
        self.slow_step_started = asyncio.Event()
        self.app = FastAPI()
        self.app.add_middleware(ClientDisconnectCancellationMiddleware)
        self.app.post("/v1/agent_sessions")(self.seed)
        self.app.post("/v1/agent_sessions/close")(self.close)
        self.app.post("/ng-rollout/{rollout}/v1/responses")(self.respond)

    async def seed(self, body: AgentSeedSessionRequest) -> JSONResponse:
        (grant,) = body.tool_accesses
        assert isinstance(grant, DirectHTTPToolAccess), grant
        self.grants[body.agent_session_id] = grant
        self.cookies[body.agent_session_id] = dict(grant.cookies)
        response = JSONResponse(AgentSeedSessionResponse(agent_session_id=body.agent_session_id).model_dump())
        response.set_cookie("agent_session", body.agent_session_id)
        return response

    async def respond(self, request: Request) -> dict[str, Any]:
        session_id = request.cookies["agent_session"]
        grant, params = self.grants[session_id], await request.json()
        output: list[dict[str, Any]] = []
        for index, action in enumerate(json.loads(params["metadata"]["actions"])):
            if action == SLOW_ACTION:
                self.slow_step_started.set()
            answer = await request_json("POST", f"{str(grant.base_url).rstrip('/')}/act", {"action": action},
                                        self.cookies[session_id])
            output.append({"type": "function_call", "id": f"fc_{index}", "call_id": f"call_{index}", "name": "act",
                           "arguments": json.dumps({"action": action}), "status": "completed"})
            output.append({"type": "function_call_output", "call_id": f"call_{index}", "output": json.dumps(answer)})
        output.append({"type": "message", "id": "msg_end", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": "done", "annotations": []}]})
        return NeMoGymResponse.model_validate({
            "id": f"resp_{session_id}", "created_at": 0, "model": "scripted-policy", "object": "response",
            "output": output, "parallel_tool_calls": False, "tool_choice": "auto", "tools": [ACT_TOOL],
        }).model_dump(mode="json")

    async def close(self, body: AgentCloseSessionRequest) -> dict[str, Any]:
        cookies = self.cookies.pop(body.agent_session_id, None)
        self.grants.pop(body.agent_session_id, None)
        return AgentCloseSessionResponse(agent_session_id=body.agent_session_id, resources_cookies=cookies).model_dump()


async def request_json(method: str, url: str, body: Any, cookies: dict[str, str]) -> Any:
    """One call through NeMo Gym's own HTTP client, as its agents make them; the answer's JSON, status added."""
    response = await request(method=method, url=url, json=body, cookies=cookies)
    payload = json.loads(await response.read() or b"null")
    return {"status": response.status, **payload} if isinstance(payload, dict) else payload


def episode_request(index: int, actions: list[str], goal: dict[str, list[str]]) -> SingleAgentTurnRequest:
    return SingleAgentTurnRequest(
        episode_id=EpisodeId(rollout_id=f"rollout-{RUN}-{index}"),
        task=MaterializedTask(
            task_id=TaskId(taskset="agentworld:terminal", task_id=f"task-{index}"),
            task_input=SingleAgentTurnTaskInput(
                responses_create_params={"input": "Set up the project folder.", "tools": [ACT_TOOL],
                                         "metadata": {"actions": json.dumps(actions)}},
                task_data={"task": f"make project {index} with a notes file", "goal": goal},
            ),
        ),
    )


def proxied(base: str) -> Any:
    """An ASGI app that forwards each request to the real server: NeMo Gym's in-process contract check then
    runs over real HTTP."""
    client = httpx.Client(base_url=base, timeout=60)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        answer = await asyncio.to_thread(client.request, scope["method"], scope["path"], content=body,
                                         headers={"content-type": "application/json"})
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": answer.content})

    return app


async def health(base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base) as client:
        return (await client.get("/health")).json()


async def sessions_open(base: str) -> int:
    return (await health(base))["sessions"]


async def main(base: str, episodes: int) -> dict[str, Any]:
    set_global_aiohttp_client(GlobalAIOHTTPAsyncClientConfig())
    agent = ScriptedAgent()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        agent_port = probe.getsockname()[1]
    agent_server = uvicorn.Server(uvicorn.Config(agent.app, host="127.0.0.1", port=agent_port, log_level="warning"))
    serving = asyncio.create_task(agent_server.serve())
    while not agent_server.started:
        await asyncio.sleep(0.05)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    config = OmegaConf.create({
        "agentworld": {"resources_servers": {"agentworld": {"host": host, "port": int(port), "entrypoint": "-"}}},
        "scripted_agent": {"responses_api_agents": {"scripted": {"host": "127.0.0.1", "port": agent_port,
                                                                 "entrypoint": "-"}}},
    })
    environment = SingleAgentTurnEnvironmentServer(
        config=SingleAgentTurnEnvironmentServerConfig(
            host="127.0.0.1", port=0, entrypoint="-", name="agentworld_environment",
            resources_server=ResourcesServerRef(type="resources_servers", name="agentworld"),
            agent_server=AgentServerRef(type="responses_api_agents", name="scripted_agent"),
            resources_tool_transports=["direct_http"], cleanup_timeout_seconds=30),
        server_client=ServerClient(head_server_config=BaseServerConfig(host="127.0.0.1", port=1),
                                   global_config_dict=config),
    )
    report: dict[str, Any] = {}
    try:
        # Many episodes at once, each in its own world: the goal is met only where that episode made it.
        # Episode 0's policy never writes its notes file, so its goal is only half met.
        def policy(index: int) -> list[str]:
            return [f"mkdir p{index}", f"cd p{index}", "touch notes.txt" if index else "pwd", "ls"]

        requests = [episode_request(index, policy(index), {"present": [f"p{index}/notes.txt"],
                                                           "absent": [f"p{(index + 1) % episodes}"]})
                    for index in range(episodes)]
        responses = await asyncio.gather(*(environment.run_request(one) for one in requests))
        report["episodes"] = []
        for response in responses:
            assert response.failure is None, response.failure
            result = response.result
            verified = BaseMultiRewardVerifyResponse.model_validate(result.model_dump(mode="json"))
            assert abs(verified.reward - sum(verified.reward_components.values())) < 1e-9, verified
            report["episodes"].append({"reward": verified.reward, "components": verified.reward_components,
                                       "steps": result.model_extra["steps"],
                                       "calls": sum(item.type == "function_call" for item in verified.response.output)})
        report["open_after_episodes"] = await sessions_open(base)
        # The Environment Server's own end-of-collection call, forwarded to the resources server and validated.
        scored = [response.result.model_dump(mode="json", include={"reward", "reward_components"})
                  for response in responses]
        metrics = await environment.aggregate_metrics(AggregateMetricsRequest(
            verify_responses=[{"_ng_task_index": index, **scores} for index, scores in enumerate(scored)]))
        report["metrics"] = {"key": metrics.key_metrics, "groups": len(metrics.group_level_metrics)}

        # NeMo Gym's own session contract: seed, seed again, close twice, close a never-seeded id, late seeds.
        await asyncio.to_thread(check_resources_session_contract, proxied(base), ResourcesSeedSessionRequest(
            resources_session_id=f"contract-{RUN}", episode_id=EpisodeId(rollout_id="contract"),
            task_id=TaskId(taskset="agentworld:terminal", task_id="contract"), task_data={"task": "check"}),
            keeps_state=True)
        report["contract"] = "passed"

        # A lost session: the cookies of a closed one reach nothing.
        seeded = await request(method="POST", url=f"{base}/seed_session", json=ResourcesSeedSessionRequest(
            resources_session_id=f"lost-{RUN}", episode_id=EpisodeId(rollout_id="lost"),
            task_id=TaskId(taskset="agentworld:terminal", task_id="lost"), task_data={}).model_dump(mode="json"))
        cookies = {name: morsel.value for name, morsel in seeded.cookies.items()}
        first = await request_json("POST", f"{base}/act", {"action": "pwd"}, cookies)
        await request_json("POST", f"{base}/close_session",
                           {"resources_session_id": f"lost-{RUN}", "episode_id": {"rollout_id": "lost"}}, {})
        after = await request_json("POST", f"{base}/act", {"action": "pwd"}, cookies)
        verify = await request_json("POST", f"{base}/verify", {}, cookies)
        forged = await request_json("POST", f"{base}/act", {"action": "pwd"}, {"agentworld_session": f"lost-{RUN}.00"})
        report["lost"] = {"before": first["status"], "act": after["status"], "verify": verify["status"],
                          "forged": forged["status"], "detail": after["detail"]}

        # A cancel: the episode is cancelled while the world model predicts its step; NeMo Gym's cleanup
        # closes the sessions, the step is cancelled, and the server serves the next episode as before.
        generations = (await health(base))["generations"]["cancelled"]
        cancelled = asyncio.create_task(environment.run_request(
            episode_request(900, ["mkdir slow", SLOW_ACTION, "ls"], {"present": ["slow"]})))
        await asyncio.wait_for(agent.slow_step_started.wait(), 60)
        await asyncio.sleep(0.3)
        cancelled.cancel()
        try:
            await cancelled
        except asyncio.CancelledError:
            report["cancel"] = "cancelled"
        report["open_after_cancel"] = await sessions_open(base)
        for _ in range(100):  # the model's generation for the cancelled step stops too
            after = (await health(base))["generations"]
            if after["cancelled"] > generations and after["running"] == 0:
                break
            await asyncio.sleep(0.1)
        report["generations_cancelled"] = after["cancelled"] - generations
        again = await environment.run_request(episode_request(901, ["mkdir again", "ls"], {"present": ["again"]}))
        assert again.failure is None, again.failure
        report["after_cancel"] = again.result.model_dump(mode="json")["reward_components"]
        report["open_at_end"] = await sessions_open(base)
    finally:
        agent_server.should_exit = True
        await serving
    return report


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2])))))
