extends Node

# One public call: POST JSON, retried with exponential backoff and jitter on network failure,
# 429, 502, 503 and 504 (spec 4.5) when the caller allows it. The answer is a Dictionary:
#   {ok: true, status, body}   or   {ok: false, status, reason, message}
# where `reason` is the ErrorInfo reason of a google.rpc.Status (spec 7), or for errors without
# one a name for the status code (NOT_FOUND, RATE_LIMITED, UNAVAILABLE, NETWORK, ...).

signal retrying(path, attempt, status, delay_seconds)

const RETRYABLE_STATUS = [429, 502, 503, 504]
const STATUS_REASONS = {
	400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 409: "REQUEST_ID_CONFLICT",
	429: "RATE_LIMITED", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "UNAVAILABLE",
}

var base_url = ""
var max_attempts = 6
var initial_backoff = 0.5
var max_backoff = 8.0
var timeout_seconds = 15.0

var _rng = RandomNumberGenerator.new()


func _ready():
	_rng.randomize()


func post(path, body, retry):
	var attempt = 0
	while true:
		attempt += 1
		var answer = yield(_post_once(path, body), "completed")
		var retryable = answer.status == 0 or RETRYABLE_STATUS.has(answer.status)
		if answer.ok or not retry or not retryable or attempt >= max_attempts:
			answer["attempts"] = attempt
			return answer
		var delay = min(max_backoff, initial_backoff * pow(2, attempt - 1)) * _rng.randf_range(0.8, 1.2)
		emit_signal("retrying", path, attempt, answer.status, delay)
		yield(get_tree().create_timer(delay), "timeout")


func _post_once(path, body):
	var http = HTTPRequest.new()
	http.timeout = timeout_seconds
	add_child(http)
	var error = http.request(base_url + path, ["Content-Type: application/json"], true, HTTPClient.METHOD_POST, JSON.print(body))
	if error != OK:
		http.queue_free()
		yield(get_tree(), "idle_frame")
		return _failure(0, "NETWORK", "request could not start (%d)" % error)
	var response = yield(http, "request_completed")
	http.queue_free()
	var result = response[0]
	var status = response[1]
	if result != HTTPRequest.RESULT_SUCCESS:
		return _failure(0, "NETWORK", "network failure (HTTPRequest result %d)" % result)
	# A gateway's 502 or 504 page is HTML: not parsed, so the engine logs no JSON error for it.
	var text = response[3].get_string_from_utf8()
	var json = null
	if text.strip_edges().begins_with("{"):
		var parsed = JSON.parse(text)
		json = parsed.result if parsed.error == OK else null
	if status >= 200 and status < 300 and typeof(json) == TYPE_DICTIONARY:
		return {"ok": true, "status": status, "body": json}
	return _status_failure(status, json)


func _status_failure(status, json):
	var reason = STATUS_REASONS.get(status, "HTTP_%d" % status)
	var message = ""
	if typeof(json) == TYPE_DICTIONARY:
		message = str(json.get("message", ""))
		var details = json.get("details")
		if typeof(details) == TYPE_ARRAY:
			for detail in details:
				if typeof(detail) == TYPE_DICTIONARY and str(detail.get("@type", "")).ends_with("google.rpc.ErrorInfo"):
					reason = str(detail.get("reason", reason))
	return _failure(status, reason, message)


func _failure(status, reason, message):
	return {"ok": false, "status": status, "reason": reason, "message": message}
