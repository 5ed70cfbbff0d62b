"""Between tool results and observations: what a twin records from reality and how it answers from a prediction."""

from __future__ import annotations

import json

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, ImageContent, TextContent

from agentworld_mcp.server.twin.observations import (
    BrokenPrediction,
    observation_of,
    predicts_error,
    protocol_error_observation,
    result_of,
)

TIME_SCHEMA = {
    "type": "object",
    "properties": {"timezone": {"type": "string"}, "datetime": {"type": "string"}},
    "required": ["timezone", "datetime"],
}


def _text(text: str, **fields) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=text)], **fields)


def test_a_text_result_is_its_text_and_a_structured_one_is_its_json():
    assert observation_of(_text("line one\nline two")) == "line one\nline two"
    structured = {"timezone": "UTC", "datetime": "2026-12-04T02:00:00+00:00"}
    # The server's text rendering may differ (the filesystem server sends the file); the structure is canonical.
    assert json.loads(observation_of(_text("file body", structured_content=structured))) == structured


def test_errors_images_and_empty_results_keep_the_envelope_without_binary_data():
    error = json.loads(observation_of(_text("Not found: /x", is_error=True)))
    assert error == {"content": [{"type": "text", "text": "Not found: /x"}], "isError": True}
    image = CallToolResult(content=[ImageContent(data="QUJD" * 1000, mime_type="image/png")])
    kept = json.loads(observation_of(image))
    assert kept["content"][0]["data"] == "<4000 base64 characters>" and kept["isError"] is False
    for empty in (CallToolResult(content=[]), _text(""), _text("  \n")):  # a world keeps every step: never blank
        assert json.loads(observation_of(empty))["isError"] is False
    mixed = CallToolResult(content=[ImageContent(data="QUJD", mime_type="image/png")], structured_content={"w": 1})
    assert json.loads(observation_of(mixed))["structuredContent"] == {"w": 1}


def test_a_predicted_text_answers_as_text_and_an_envelope_as_what_it_says():
    assert result_of("plain answer", None).content[0].text == "plain answer"
    envelope = json.dumps({"content": [{"type": "text", "text": "denied"}], "isError": True})
    refused = result_of(envelope, None)
    assert refused.is_error and refused.content[0].text == "denied"


def test_a_predicted_protocol_error_is_raised_but_a_tools_own_error_json_is_a_result():
    with pytest.raises(MCPError) as raised:
        result_of(json.dumps({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no such tool"}}), None)
    assert raised.value.code == -32601
    own = result_of(json.dumps({"code": 404, "message": "repository not found"}), None)
    assert not own.is_error and "repository not found" in own.content[0].text
    recorded = protocol_error_observation(MCPError(-32602, "Unknown tool: nope"))
    assert predicts_error(recorded, None)


def test_a_tool_with_an_output_schema_gets_conforming_structure_or_an_error_saying_so():
    good = json.dumps({"timezone": "UTC", "datetime": "2026-12-04T02:00:00+00:00"})
    answered = result_of(good, TIME_SCHEMA)
    assert not answered.is_error and answered.structured_content["timezone"] == "UTC"
    for broken, problem in ((json.dumps({"timezone": "UTC"}), "'datetime' is a required property"),
                            ("It is two o'clock.", "no JSON object")):
        with pytest.raises(BrokenPrediction, match="output schema") as raised:
            result_of(broken, TIME_SCHEMA)
        assert problem in str(raised.value)
    assert predicts_error("It is two o'clock.", TIME_SCHEMA) and not predicts_error(good, TIME_SCHEMA)


def test_a_recorded_observation_reads_back_as_the_same_kind_of_result():
    for result in (_text("hello"), _text("boom", is_error=True),
                   _text("{}", structured_content={"timezone": "UTC", "datetime": "now"})):
        schema = TIME_SCHEMA if result.structured_content else None
        again = result_of(observation_of(result), schema)
        assert bool(again.is_error) == bool(result.is_error)
        assert again.structured_content == result.structured_content


def test_a_schema_that_cannot_be_applied_is_a_problem_to_report_not_a_crash():
    from agentworld_mcp.tools.tool_definitions import schema_problem

    problem = schema_problem({"$ref": "#/$defs/missing"}, {"a": 1}, "arguments")
    assert problem is not None and "cannot be checked" in problem


# The convert_time tool's output schema as the reference time server publishes it: definitions at the top.
CONVERT_SCHEMA = {
    "$defs": {"TimeResult": {"type": "object", "properties": {"timezone": {"type": "string"}, "is_dst": {"type": "boolean"}},
                             "required": ["timezone", "is_dst"]}},
    "type": "object",
    "properties": {"source": {"$ref": "#/$defs/TimeResult"}, "target": {"$ref": "#/$defs/TimeResult"}},
    "required": ["source", "target"],
    "additionalProperties": False,
}
CONVERTED = {"source": {"timezone": "UTC", "is_dst": False}, "target": {"timezone": "Asia/Tokyo", "is_dst": False}}


def test_a_reply_schema_takes_the_tools_structured_result_or_either_error_form():
    from agentworld_mcp.tools.tool_definitions import parse_tool_definitions, reply_problem

    tools = parse_tool_definitions([{"name": "convert_time", "outputSchema": CONVERT_SCHEMA}, {"name": "ping"}], 10_000)
    assert tools.reply_schema("ping") is None  # no output schema: the reply stays free
    schema = tools.reply_schema("convert_time")
    replies = [json.dumps(CONVERTED), '{"content": [{"type": "text", "text": "Invalid timezone"}], "isError": true}',
               '{"error": {"code": -32602, "message": "Invalid params"}}']
    assert all(reply_problem(schema, reply) is None for reply in replies)
    # The twin hands each to the agent as it is: a result, an error result, a protocol error.
    assert result_of(replies[0], CONVERT_SCHEMA).structured_content == CONVERTED
    assert result_of(replies[1], CONVERT_SCHEMA).is_error
    with pytest.raises(MCPError, match="Invalid params"):
        result_of(replies[2], CONVERT_SCHEMA)
    broken = {**CONVERTED, "target": {"timezone": 9, "is_dst": False}}  # the moved "#/$defs" reference still applies
    for reply in (json.dumps(broken), '{"content": [], "isError": true}', "12:00 in Tokyo is 21:00"):
        assert reply_problem(schema, reply) is not None


def test_every_reference_servers_output_schema_becomes_a_grammar():
    from llama_cpp import LlamaGrammar

    from agentworld_mcp.tools.tool_definitions import reply_schema

    file_result = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                   "properties": {"content": {"type": "string"}}, "required": ["content"], "additionalProperties": False}
    for output_schema in (CONVERT_SCHEMA, file_result, TIME_SCHEMA):
        LlamaGrammar.from_json_schema(json.dumps(reply_schema(output_schema)), verbose=False)


def test_a_structured_result_shaped_like_an_envelope_is_the_tools_own_result():
    # The reference filesystem server's read_media_file: its structured result is a list of typed blocks.
    media_schema = {"type": "object", "additionalProperties": False, "required": ["content"], "properties": {
        "content": {"type": "array", "items": {"type": "object", "required": ["type", "data", "mimeType"], "properties": {
            "type": {"enum": ["image", "audio"]}, "data": {"type": "string"}, "mimeType": {"type": "string"}}}}}}
    structured = {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}
    predicted = result_of(json.dumps(structured), media_schema)
    assert predicted.structured_content == structured and not predicted.is_error
    # What a twin records from the real server keeps its envelope, and reads back as one.
    real = CallToolResult(content=[ImageContent(data="iVBORw0KGgo=", mime_type="image/png")], structured_content=structured)
    assert result_of(observation_of(real), media_schema).structured_content == structured
    assert result_of('{"content": [{"type": "text", "text": "ENOENT"}], "isError": true}', media_schema).is_error
