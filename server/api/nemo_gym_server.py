"""The world model as a NeMo Gym resources server: one episode per session, all on one Simulator.

    app = nemo_gym_app(Simulator(base_url=...), "terminal", max_steps=8)

The routes are the ones NeMo Gym 0.7's servers call on a resources server (field names as its
`nemo_gym.base_resources_server` models have them):
- `POST /seed_session`: from an Environment Server, `{resources_session_id, episode_id, task_id,
  task_data}`; the id is the caller's, and seeding it again for the same episode returns the same
  session. The answer is `{resources_session_id}` and a session cookie, which the later calls carry.
  From an agent's legacy `/run`, any other body (the dataset row): a new session, answered with its
  first `observation` and the cookie. Either way the episode's `task`, `state`, `domain`, `tools` and
  `goal` come from the task's fields; the dataset's other fields are left alone.
- the agent's tools, `POST /<tool>` with the call's JSON arguments, as NeMo Gym's agents call them:
  `/act` `{"action": ...}` steps the world with one action in the domain's format, `/observe` gives
  the starting state again, and in the mcp domain each simulated tool is a route of its own.
- `POST /verify`: the verify body, returned with `reward` (the episode's total) and `reward_components`
  (the world's own checks, named: episodes.py), each component also at the top level, where NeMo Gym's
  metrics read numbers. A legacy session ends here, since nothing closes it later.
- `POST /close_session`: `{resources_session_id, episode_id}`; a step in flight is cancelled.
- `POST /aggregate_metrics`: `{verify_responses}` summarised as NeMo Gym's `AggregateMetrics` (mean reward and
  components, overall and per task).
An unknown or closed session answers 404; a client that goes away mid-step cancels its step.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...engine.errors import InputError, validation_line
from ...tools.tool_definitions import parse_tool_definitions
from .episodes import RESET_OPTIONS, DoneFn, Episode, EpisodeRules, RewardFn
from .nemo_gym_metrics import aggregated
from .nemo_gym_sessions import COOKIE, Session, SessionRefused, SessionTable
from .python_api import Simulator

OWN_ROUTES = ("seed_session", "close_session", "verify", "act", "observe", "health", "aggregate_metrics", "mcp")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EpisodeRef(_Strict):
    rollout_id: str = Field(min_length=1)
    attempt: int = Field(default=0, ge=0)


class TaskRef(_Strict):
    taskset: str = Field(min_length=1)
    task_id: str = Field(min_length=1)


class SeedRequest(_Strict):
    resources_session_id: str = Field(min_length=1)
    episode_id: EpisodeRef
    task_id: TaskRef
    task_data: dict[str, JsonValue]


class CloseRequest(_Strict):
    resources_session_id: str = Field(min_length=1)
    episode_id: EpisodeRef


class ActRequest(_Strict):
    action: str = Field(min_length=1, description="one action, in the domain's action format")


class _Refused(Exception):
    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status, self.detail = status, detail


class _ClientGone(Exception):
    """The caller disconnected before its step ended: the step was cancelled and no one reads an answer."""


def nemo_gym_app(
    simulator: Simulator,
    domain: str,
    *,
    task: str = "",
    state: str = "",
    max_steps: int = 20,
    max_sessions: int = 256,
    reward_fn: RewardFn | None = None,
    done_fn: DoneFn | None = None,
    success: list[dict[str, Any]] | None = None,
    invalid_action_reward: float = -1.0,
    goal: dict[str, Any] | None = None,
    **simulate_options: Any,
) -> Starlette:
    """A Starlette app serving NeMo Gym's resources-server routes over `simulator`; the arguments are
    WorldModelEnv's (checked now, so a bad one fails before anything is served; `goal` is every episode's
    unless its task gives one), and `max_sessions` bounds the sessions open at once."""
    rules = EpisodeRules.checked(simulator, domain, task, state, reward_fn, done_fn, max_steps, success or [],
                                 invalid_action_reward, simulate_options, goal=goal)
    server = _ResourcesServer(simulator, rules, SessionTable(max_sessions))
    routes = [
        Route("/health", server.health, methods=["GET"]),
        Route("/seed_session", server.seed_session, methods=["POST"]),
        Route("/close_session", server.close_session, methods=["POST"]),
        Route("/verify", server.verify, methods=["POST"]),
        Route("/aggregate_metrics", aggregate_metrics, methods=["POST"]),
        Route("/act", server.act, methods=["POST"]),
        Route("/observe", server.observe, methods=["POST"]),
        Route("/{tool}", server.call_tool, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.sessions = server.sessions  # for a caller that wants to see what is open
    return app


class _ResourcesServer:
    def __init__(self, simulator: Simulator, rules: EpisodeRules, sessions: SessionTable):
        self.simulator, self.rules, self.sessions = simulator, rules, sessions

    async def health(self, request: Request) -> Response:
        stats = self.simulator.context.engine.stats()  # generations cancelled show that a cancel reached the model
        return JSONResponse({"status": "ok", "sessions": len(self.sessions), "generations": {
            "running": stats.running, "completed": stats.completed, "cancelled": stats.cancelled}})

    async def seed_session(self, request: Request) -> Response:
        try:
            body = await _json_object(request)
            if "resources_session_id" in body:  # an Environment Server's seed, under its own id
                seed = _parsed(SeedRequest, body)
                identity = (seed.episode_id, seed.task_id)
                session, _ = self.sessions.seed(seed.resources_session_id, identity,
                                                lambda: self._begin(seed.task_data))
                answer: dict[str, Any] = {"resources_session_id": session.id}
            else:  # an agent's legacy /run: the whole dataset row, and no id of its own
                session, _ = self.sessions.seed(uuid.uuid4().hex, None, lambda: self._begin(body))
                answer = {"observation": session.episode.first_observation()}
        except (_Refused, SessionRefused) as refused:
            return _error(refused.status, refused.detail)
        response = JSONResponse(answer)
        response.set_cookie(COOKIE, self.sessions.cookie(session.id), httponly=True, samesite="strict")
        return response

    def _begin(self, task_data: dict[str, Any]) -> Episode:
        options = {name: task_data[name] for name in RESET_OPTIONS if task_data.get(name) is not None}
        seed = task_data.get("seed")
        try:
            return Episode.begin(self.simulator, self.rules, seed if isinstance(seed, int) else None, options)
        except (InputError, ValueError) as exc:  # the task's scene is wrong: say what, seed nothing
            raise _Refused(422, f"the task cannot start an episode: {exc}") from None

    async def close_session(self, request: Request) -> Response:
        try:
            body = await _json_object(request)
            if "resources_session_id" in body:
                close = _parsed(CloseRequest, body)
                session_id = close.resources_session_id
                if not self.sessions.close(session_id, lambda bound: bound is None or bound[0] == close.episode_id):
                    return _error(409, f"session {session_id!r} is bound to another episode_id")
                return JSONResponse({"resources_session_id": session_id})
            session = self._session(request)  # a legacy session is named by its cookie alone
        except _Refused as refused:
            return _error(refused.status, refused.detail)
        self.sessions.close(session.id)
        return JSONResponse({"resources_session_id": session.id})

    async def act(self, request: Request) -> Response:
        try:
            session = self._session(request)
            action = _parsed(ActRequest, await _json_object(request)).action
        except _Refused as refused:
            return _error(refused.status, refused.detail)
        return await self._step(request, session, action)

    async def observe(self, request: Request) -> Response:
        try:
            session = self._session(request)
        except _Refused as refused:
            return _error(refused.status, refused.detail)
        episode = session.episode
        return JSONResponse({"observation": episode.first_observation(), "task": episode.task, "step": episode.steps,
                             "done": episode.over})

    async def call_tool(self, request: Request) -> Response:
        name = request.path_params["tool"]
        try:
            session = self._session(request)
            arguments = await _json_object(request)
            if name not in _tool_names(self.simulator, session.episode):
                raise _Refused(404, f"no tool {name!r} here: the tools are act and observe"
                                    + (", and the episode's simulated tools" if session.episode.tools else ""))
        except _Refused as refused:
            return _error(refused.status, refused.detail)
        return await self._step(request, session, json.dumps({"name": name, "arguments": arguments}))

    async def verify(self, request: Request) -> Response:
        try:
            session = self._session(request)
            body = await _json_object(request)
        except _Refused as refused:
            return _error(refused.status, refused.detail)
        async with session.lock:  # after the step in flight, if any: the reward counts it
            episode = session.episode
            components = episode.reward_components(self.simulator)
            total = episode.total_reward(self.simulator)
        if session.identity is None:  # a legacy session: its agent never closes it
            self.sessions.close(session.id)
        return JSONResponse({**body, "reward": total, "reward_components": components, **components,
                             "steps": episode.steps, "done": episode.over})

    async def _step(self, request: Request, session: Session, action: str) -> Response:
        async with session.lock:
            if session.closed:
                return _error(404, f"session {session.id!r} was closed")
            if session.episode.over:
                return _error(409, "the episode is over: verify it, or seed a new session")
            step = asyncio.ensure_future(session.episode.step(self.simulator, action))
            session.running.add(step)
            try:
                outcome = await _unless_disconnected(request, step)
            except _ClientGone:
                return Response(status_code=499)  # nobody is listening; the step was cancelled
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():  # type: ignore[union-attr]  # this request itself ends
                    raise
                return _error(404, f"session {session.id!r} was closed during this step")
            finally:
                session.running.discard(step)
        return JSONResponse({
            "observation": outcome.observation,
            "reward": outcome.reward,
            "done": outcome.terminated or outcome.truncated,
            "step": outcome.info.get("step", session.episode.steps),
            "effects": outcome.info.get("effects", {}),
            "violations": outcome.info.get("violations", []),
            "reward_components": outcome.info.get("reward_components", {}),
            "success": outcome.info.get("success"),
            "error": outcome.info.get("error"),
        })

    def _session(self, request: Request) -> Session:
        session = self.sessions.get(self.sessions.id_from_cookie(request.cookies.get(COOKIE)))
        if session is None:
            raise _Refused(404, "no such session: seed one with POST /seed_session and send its cookie "
                                "(a closed or lost session is gone)")
        return session


async def _unless_disconnected(request: Request, step: asyncio.Future[Any]) -> Any:
    """The step's result, or _ClientGone (and the step cancelled) if the client disconnects first."""

    async def disconnected() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    watcher = asyncio.ensure_future(disconnected())
    try:
        done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        step.cancel()
        raise
    finally:
        watcher.cancel()
    if step not in done:
        step.cancel()
        raise _ClientGone
    return step.result()


async def aggregate_metrics(request: Request) -> Response:
    try:
        answers = (await _json_object(request)).get("verify_responses")
        if not isinstance(answers, list) or not all(isinstance(answer, dict) for answer in answers):
            raise _Refused(422, "verify_responses must be a list of verify answers (JSON objects)")
    except _Refused as refused:
        return _error(refused.status, refused.detail)
    return JSONResponse(aggregated(answers))


def _tool_names(simulator: Simulator, episode: Episode) -> set[str]:
    if not episode.tools:
        return set()
    definitions = parse_tool_definitions(episode.tools, simulator.settings.limits().max_state_chars).definitions
    return {definition["name"] for definition in definitions} - set(OWN_ROUTES)


async def _json_object(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _Refused(400, f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise _Refused(422, f"the body must be a JSON object, not {type(body).__name__}")
    return body


def _parsed(model: type[BaseModel], body: dict[str, Any]) -> Any:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise _Refused(422, validation_line(exc, "body")) from None


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


__all__ = ["COOKIE", "nemo_gym_app"]
