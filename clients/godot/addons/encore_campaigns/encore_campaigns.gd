extends Node

# The Encore Campaigns client for Godot 3.x: the four public calls and the rules a game must
# keep (spec 3.1, 4.3 to 4.5), as signals a store UI can wire to.
#
#   EncoreCampaigns.configure("https://encore.example", "ck_...", steam_bridge)
#   EncoreCampaigns.load_funding()   -> funding_loaded(funding) | request_failed(...)
#   EncoreCampaigns.load_offers()    -> offers_loaded(offers, purchasable, unavailable_reason)
#   EncoreCampaigns.buy(offer_id)    -> purchase_started(order_id), then exactly one of
#       purchase_credited(order_id, funding), purchase_pending(order_id, funding),
#       purchase_cancelled(order_id), purchase_timed_out(order_id),
#       purchase_failed(order_id, reason)
# Every method can also be awaited: `var answer = yield(EncoreCampaigns.buy(id), "completed")`.

const Http = preload("res://addons/encore_campaigns/encore_http.gd")
const SteamLanguage = preload("res://addons/encore_campaigns/steam_language.gd")

const TICKET_IDENTITY = "encore-campaign"

signal funding_loaded(funding)
signal offers_loaded(offers, purchasable, unavailable_reason)
signal request_failed(call, reason, message)
signal purchase_started(order_id)
signal purchase_credited(order_id, funding)
# Paid, but the platform had not settled when polling stopped; the service settles it on its own.
signal purchase_pending(order_id, funding)
# The player said no (CANCELLED, or INITIATED after a decline): not an error.
signal purchase_cancelled(order_id)
# Steam's authorization callback did not come within authorization_timeout: the client stopped
# waiting. Not completed here; if the player did approve, the service settles it on its own.
signal purchase_timed_out(order_id)
signal purchase_failed(order_id, reason)
signal retrying(path, attempt, status, delay_seconds)
# A Steam authorization callback for an order this client is not buying (spec 4.3 rule 4).
signal callback_ignored(order_id)
signal _authorization_matched

var campaign_key = ""
var steam = null
# Spec 3.1 / 8: poll complete for CREDITED about every two seconds, about ten times.
var poll_interval = 2.0
var max_polls = 10
# Seconds the player may take in the overlay before buy stops waiting for Steam's answer.
var authorization_timeout = 300.0

var _http = null
var _awaited_order = ""
var _early_callbacks = {}
# The authorized flag of the awaited order's callback, once it came.
var _answer = null
var _buying = false


func _init():
	_http = Http.new()
	_http.name = "Http"
	add_child(_http)
	_http.connect("retrying", self, "_on_retrying")


func configure(base_url, key, steam_bridge):
	_http.base_url = base_url.trim_suffix("/")
	campaign_key = key
	if steam != null:
		steam.disconnect("authorization_response", self, "_on_authorization")
	steam = steam_bridge
	steam.connect("authorization_response", self, "_on_authorization")


# The retry policy: attempts and backoff (seconds) of every call.
func set_retry(max_attempts, initial_backoff, max_backoff):
	_http.max_attempts = max_attempts
	_http.initial_backoff = initial_backoff
	_http.max_backoff = max_backoff


func load_funding():
	var answer = yield(_http.post("/v1/public/funding:get", {"campaignKey": campaign_key}, true), "completed")
	if answer.ok:
		emit_signal("funding_loaded", answer.body)
	else:
		emit_signal("request_failed", "funding:get", answer.reason, answer.message)
	return answer


func load_offers():
	var answer = yield(_http.post("/v1/public/offers:list", {"campaignKey": campaign_key}, true), "completed")
	if answer.ok:
		var body = answer.body
		emit_signal("offers_loaded", body.get("offers", []), bool(body.get("purchasable", false)), str(body.get("unavailableReason", "")))
	else:
		emit_signal("request_failed", "offers:list", answer.reason, answer.message)
	return answer


# Buys one offer; the answer is {outcome: credited|pending|cancelled|timed_out|failed, order_id,
# state, funding, reason, begin_attempts, polls}.
func buy(offer_id):
	# One purchase at a time: the callback is matched to the one order being bought.
	if _buying:
		yield(get_tree(), "idle_frame")
		emit_signal("purchase_failed", "", "PURCHASE_IN_PROGRESS")
		return {"outcome": "failed", "order_id": "", "reason": "PURCHASE_IN_PROGRESS"}
	_buying = true
	steam.request_web_api_ticket(TICKET_IDENTITY)
	var ticket = yield(steam, "ticket_response")
	if not ticket[0]:
		return _end("failed", "", {"reason": "NO_STEAM_TICKET", "message": ticket[1]})

	# Spec 4.3 rule 3 / 4.5: a fresh requestId per attempt makes begin safe to retry.
	var request_id = new_request_id()
	_early_callbacks.clear()
	_awaited_order = "*"
	var begin = yield(_http.post("/v1/public/purchases:begin", {
		"campaignKey": campaign_key, "offerId": offer_id, "authTicket": ticket[1],
		"language": SteamLanguage.to_iso(steam.get_language()), "requestId": request_id,
	}, true), "completed")
	if not begin.ok:
		_awaited_order = ""
		return _end("failed", "", {"reason": begin.reason, "message": begin.message, "begin_attempts": begin.attempts})

	var order_id = str(begin.body.orderId)
	var purchase = str(begin.body.purchase)
	var extra = {"request_id": request_id, "begin_attempts": begin.attempts, "polls": 0}
	# The overlay may answer before begin's response arrived (spec 3.1): keep that answer.
	_answer = null
	if _early_callbacks.has(order_id):
		_answer = _early_callbacks[order_id]
		_awaited_order = ""
	else:
		_awaited_order = order_id
	for other in _early_callbacks:
		if other != order_id:
			emit_signal("callback_ignored", other)
	_early_callbacks.clear()
	emit_signal("purchase_started", order_id)
	# The answer may also come while purchase_started is being handled.
	if _answer == null:
		var timer = get_tree().create_timer(authorization_timeout)
		timer.connect("timeout", self, "_on_authorization_timeout", [order_id])
		yield(self, "_authorization_matched")
	if _answer == null:
		# Steam never answered; _on_authorization_timeout stopped listening for this order.
		# Nothing is completed here: an approval that still comes is settled by the service.
		return _end("timed_out", order_id, extra)
	var authorized = _answer

	var complete = yield(_complete(purchase, order_id, authorized), "completed")
	while complete.ok and complete.body.get("state") == "STATE_AUTHORIZED" and extra["polls"] < max_polls:
		extra["polls"] += 1
		yield(get_tree().create_timer(poll_interval), "timeout")
		complete = yield(_complete(purchase, order_id, true), "completed")
	if not complete.ok:
		extra["reason"] = complete.reason
		extra["message"] = complete.message
		return _end("failed", order_id, extra)
	var state = str(complete.body.get("state"))
	extra["state"] = state
	extra["funding"] = complete.body.get("funding")
	match state:
		"STATE_CREDITED":
			return _end("credited", order_id, extra)
		"STATE_AUTHORIZED":
			return _end("pending", order_id, extra)
		"STATE_CANCELLED", "STATE_INITIATED":
			return _end("cancelled", order_id, extra)
		_:
			extra["reason"] = "STATE_FAILED"
			return _end("failed", order_id, extra)


func _complete(purchase, order_id, authorized):
	var body = {"campaignKey": campaign_key, "purchase": purchase, "orderId": order_id, "authorized": authorized}
	var answer = yield(_http.post("/v1/public/purchases:complete", body, true), "completed")
	return answer


func _end(outcome, order_id, extra):
	_buying = false
	var answer = extra.duplicate()
	answer["outcome"] = outcome
	answer["order_id"] = order_id
	match outcome:
		"credited":
			emit_signal("purchase_credited", order_id, answer.get("funding"))
		"pending":
			emit_signal("purchase_pending", order_id, answer.get("funding"))
		"cancelled":
			emit_signal("purchase_cancelled", order_id)
		"timed_out":
			emit_signal("purchase_timed_out", order_id)
		_:
			emit_signal("purchase_failed", order_id, answer.get("reason", "UNKNOWN"))
	return answer


func _on_authorization(_app_id, order_id, authorized):
	var order = str(order_id)
	if _awaited_order == "*":
		_early_callbacks[order] = authorized
	elif _awaited_order != "" and order == _awaited_order:
		_awaited_order = ""
		_answer = authorized
		emit_signal("_authorization_matched")
	else:
		emit_signal("callback_ignored", order)


func _on_authorization_timeout(order_id):
	if _awaited_order == order_id:
		_awaited_order = ""
		emit_signal("_authorization_matched")


func _on_retrying(path, attempt, status, delay):
	emit_signal("retrying", path, attempt, status, delay)


# Money (units a decimal string, nanos) as text, e.g. "$4.99", without a float (spec 2.2).
static func money_text(money):
	if typeof(money) != TYPE_DICTIONARY:
		return ""
	var cents = "%02d" % int(int(money.get("nanos", 0)) / 10000000)
	var symbol = "$" if money.get("currencyCode", "") == "USD" else str(money.get("currencyCode", "")) + " "
	return "%s%s.%s" % [symbol, str(money.get("units", "0")), cents]


# A random (version 4) UUID.
static func new_request_id():
	var rng = RandomNumberGenerator.new()
	rng.randomize()
	var hex = ""
	for i in range(16):
		var byte = rng.randi_range(0, 255)
		if i == 6:
			byte = (byte & 0x0f) | 0x40
		elif i == 8:
			byte = (byte & 0x3f) | 0x80
		hex += "%02x" % byte
	return "%s-%s-%s-%s-%s" % [hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4), hex.substr(16, 4), hex.substr(20, 12)]
