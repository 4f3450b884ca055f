extends Node

# The game-client scenarios of issue 12, played through the addon exactly as a game would use
# it, with Steam played by the simulator. Prints `SCENARIO <name> OK <json>` or
# `SCENARIO <name> FAIL <why>` per scenario (test/games/game-harness.ts reads them).

const Campaigns = preload("res://addons/encore_campaigns/encore_campaigns.gd")
const SimulatorSteam = preload("res://addons/encore_campaigns/simulator_steam_bridge.gd")
const SteamLanguage = preload("res://addons/encore_campaigns/steam_language.gd")
const GodotSteamBridge = preload("res://addons/encore_campaigns/godotsteam_bridge.gd")
const StoreExample = preload("res://addons/encore_campaigns/example/store_example.gd")

# Another game's order: its callback reaches this listener too and must change nothing.
const OTHER_ORDER = "1234567890123"
const OFFERS = "/v1/public/offers:list"
const BEGIN = "/v1/public/purchases:begin"
const COMPLETE = "/v1/public/purchases:complete"

var campaigns
var steam
var limited
var failures = 0
var next_answer = "approve"
var foreign_callback = false
var ignored = []
var retries = []
# early-callback: whether the callback had been delivered when the client announced the order.
var delivered = false
var delivered_before_begin = null
# A buy run in the background, its answer once it ends.
var slot = null


func _ready():
	steam = SimulatorSteam.new()
	steam.sim_url = OS.get_environment("STEAM_SIM_URL")
	steam.app_id = int(OS.get_environment("STEAM_APP_ID"))
	steam.steamid = OS.get_environment("STEAM_ID")
	steam.language = "schinese"
	add_child(steam)
	campaigns = _client(OS.get_environment("ENCORE_BASE_URL"))
	limited = _client(OS.get_environment("ENCORE_LIMITED_BASE_URL"))
	campaigns.connect("callback_ignored", self, "_on_callback_ignored")
	call_deferred("_run")


func _client(base_url):
	var client = Campaigns.new()
	add_child(client)
	client.configure(base_url, OS.get_environment("ENCORE_CAMPAIGN_KEY"), steam)
	# Fast backoff and polling keep the run short; the rules (and the ten polls) are the same.
	client.set_retry(6, _env_seconds("ENCORE_RETRY_INITIAL_BACKOFF_MS"), 2.0)
	client.poll_interval = _env_seconds("ENCORE_POLL_INTERVAL_MS")
	client.connect("purchase_started", self, "_on_purchase_started", [client])
	client.connect("retrying", self, "_on_retrying")
	return client


func _run():
	_language()
	yield(_buy(), "completed")
	yield(_say_no("decline"), "completed")
	yield(_say_no("dismiss"), "completed")
	yield(_rate_limited(), "completed")
	yield(_begin_503(), "completed")
	yield(_offers_retry(), "completed")
	yield(_begin_retry(), "completed")
	yield(_complete_retry(), "completed")
	yield(_settles_late(), "completed")
	yield(_never_settles(), "completed")
	yield(_callback_timeout(), "completed")
	yield(_early_callback(), "completed")
	yield(_no_steam(), "completed")
	yield(_sample_scene(), "completed")
	OS.exit_code = 1 if failures > 0 else 0
	get_tree().quit()


func _language():
	var cases = {"english": "en", "schinese": "zh", "tchinese": "zh", "koreana": "ko", "brazilian": "pt", "latam": "es", "pt-BR": "pt", "klingon": "en"}
	for language in cases:
		if SteamLanguage.to_iso(language) != cases[language]:
			return _fail("language", "%s -> %s, expected %s" % [language, SteamLanguage.to_iso(language), cases[language]])
	_pass("language", {})


func _buy():
	var before = yield(campaigns.load_funding(), "completed")
	var offers = yield(campaigns.load_offers(), "completed")
	if not before.ok or not offers.ok:
		yield(get_tree(), "idle_frame")
		return _fail("buy", "reads failed: %s %s" % [before.get("reason"), offers.get("reason")])
	if not offers.body.purchasable or offers.body.offers.size() < 1:
		return _fail("buy", "nothing to buy: %s" % JSON.print(offers.body))
	var offer_id = offers.body.offers[0].offerId
	if offer_id != OS.get_environment("ENCORE_OFFER_ID"):
		return _fail("buy", "first offer is %s" % offer_id)
	next_answer = "approve"
	foreign_callback = true
	ignored.clear()
	var answer = yield(campaigns.buy(offer_id), "completed")
	if answer.outcome != "credited":
		return _fail("buy", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	var after = answer.funding
	_pass("buy", {
		"orderId": answer.order_id, "state": answer.state,
		"balanceBeforeUnits": before.body.balance.units, "balanceAfterUnits": after.balance.units,
		"ignoredOrders": ignored,
	})


func _say_no(answer_name):
	next_answer = answer_name
	var answer = yield(campaigns.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")
	if answer.outcome != "cancelled":
		return _fail(answer_name, "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	_pass(answer_name, {"orderId": answer.order_id, "state": answer.state, "outcome": answer.outcome})


func _rate_limited():
	retries.clear()
	var reads = 0
	for i in range(5):
		var answer = yield(limited.load_funding(), "completed")
		if not answer.ok:
			return _fail("rate-limited", "read %d failed: %s" % [i, answer.reason])
		reads += 1
	var on_429 = 0
	for retry in retries:
		if retry[1] == 429:
			on_429 += 1
	if on_429 == 0:
		return _fail("rate-limited", "no 429 was met")
	_pass("rate-limited", {"reads": reads, "retriesOn429": on_429})


func _begin_503():
	# Steam opens the order, but its reply to the service is lost: begin answers 503.
	var armed = yield(steam.inject_fault({"call": "InitTxn", "kind": "resetAfterCommit"}), "completed")
	if not armed:
		return _fail("begin-503", "could not arm the fault")
	retries.clear()
	next_answer = "approve"
	var answer = yield(campaigns.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")
	if answer.outcome != "credited":
		return _fail("begin-503", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	var on_503 = 0
	for retry in retries:
		if retry[0] == "/v1/public/purchases:begin" and retry[1] == 503:
			on_503 += 1
	if on_503 != 1:
		return _fail("begin-503", "begin retried %d times on 503" % on_503)
	_pass("begin-503", {"orderId": answer.order_id, "requestId": answer.request_id, "beginAttempts": answer.begin_attempts})


# The gateway answers 502, then drops the connection; the third attempt reaches the service.
func _offers_retry():
	yield(_gateway("POST", "/faults", {"path": OFFERS, "kind": "status", "status": 502}), "completed")
	yield(_gateway("POST", "/faults", {"path": OFFERS, "kind": "reset"}), "completed")
	retries.clear()
	var answer = yield(campaigns.load_offers(), "completed")
	if not answer.ok:
		return _fail("offers-retry", "offers failed: %s" % answer.reason)
	_pass("offers-retry", {"offers": answer.body.offers.size(), "retried": _retried_on(OFFERS)})


# The service opened the order each time; the gateway lost its answer (502, then a reset).
func _begin_retry():
	yield(_gateway("POST", "/faults", {"path": BEGIN, "kind": "status", "status": 502, "forward": true}), "completed")
	yield(_gateway("POST", "/faults", {"path": BEGIN, "kind": "reset", "forward": true}), "completed")
	var answer = yield(_approved_buy(), "completed")
	if answer.outcome != "credited":
		return _fail("begin-retry", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	_pass("begin-retry", {
		"orderId": answer.order_id, "requestId": answer.request_id,
		"beginAttempts": answer.begin_attempts, "retried": _retried_on(BEGIN),
	})


# The service credited, the gateway answered 504; then a reset before the service saw it.
func _complete_retry():
	yield(_gateway("POST", "/faults", {"path": COMPLETE, "kind": "status", "status": 504, "forward": true}), "completed")
	yield(_gateway("POST", "/faults", {"path": COMPLETE, "kind": "reset"}), "completed")
	var answer = yield(_approved_buy(), "completed")
	if answer.outcome != "credited":
		return _fail("complete-retry", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	_pass("complete-retry", {"orderId": answer.order_id, "outcome": answer.outcome, "retried": _retried_on(COMPLETE)})


# Steam's FinalizeTxn is unavailable twice: complete answers STATE_AUTHORIZED until it is not.
func _settles_late():
	yield(steam.inject_fault({"call": "FinalizeTxn", "kind": "http5xx", "status": 503, "times": 2}), "completed")
	var answer = yield(_approved_buy(), "completed")
	if answer.outcome != "credited":
		return _fail("settles-late", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	_pass("settles-late", {"orderId": answer.order_id, "outcome": answer.outcome, "state": answer.state, "polls": answer.polls})


# More FinalizeTxn failures than the client ever polls: it stops, pending.
func _never_settles():
	yield(steam.inject_fault({"call": "FinalizeTxn", "kind": "http5xx", "status": 503, "times": 20}), "completed")
	var answer = yield(_approved_buy(), "completed")
	yield(steam.clear_faults(), "completed")
	if answer.outcome != "pending":
		return _fail("never-settles", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	_pass("never-settles", {
		"orderId": answer.order_id, "outcome": answer.outcome, "state": answer.state,
		"polls": answer.polls, "reason": answer.get("reason", ""),
	})


# The overlay is up and Steam never answers within the client's timeout; the player's approval
# that comes afterwards finds the client no longer listening.
func _callback_timeout():
	var patient = _client(OS.get_environment("ENCORE_BASE_URL"))
	var timeout_ms = int(OS.get_environment("ENCORE_AUTHORIZATION_TIMEOUT_MS"))
	patient.authorization_timeout = timeout_ms / 1000.0
	var late = []
	patient.connect("callback_ignored", self, "_on_late_callback", [late])
	next_answer = "none"
	var answer = yield(patient.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")
	if answer.outcome != "timed_out":
		return _fail("callback-timeout", "ended %s: %s" % [answer.outcome, JSON.print(answer)])
	yield(steam.answer_overlay(answer.order_id, "approve"), "completed")
	_pass("callback-timeout", {"orderId": answer.order_id, "outcome": answer.outcome, "timeoutMs": timeout_ms, "ignoredOrders": late})


# The gateway holds begin's answer; meanwhile the player approves and Steam's callback comes.
func _early_callback():
	yield(_gateway("POST", "/faults", {"path": BEGIN, "kind": "hold"}), "completed")
	next_answer = "none"
	delivered = false
	delivered_before_begin = null
	slot = null
	_buy_into_slot(campaigns)
	var held = []
	for _i in range(200):
		yield(get_tree().create_timer(0.05), "timeout")
		var answer = yield(_gateway("GET", "/held", {}), "completed")
		held = answer.body.held
		if held.size() > 0:
			break
	if held.size() != 1:
		return _fail("early-callback", "the gateway holds %d answers" % held.size())
	yield(steam.answer_overlay(held[0].body.orderId, "approve"), "completed")
	delivered = true
	yield(_gateway("POST", "/release", {}), "completed")
	while slot == null:
		yield(get_tree(), "idle_frame")
	if slot.outcome != "credited":
		return _fail("early-callback", "ended %s: %s" % [slot.outcome, JSON.print(slot)])
	_pass("early-callback", {"orderId": slot.order_id, "outcome": slot.outcome, "overlayAnsweredBeforeBegin": delivered_before_begin})


func _buy_into_slot(client):
	slot = yield(client.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")


func _approved_buy():
	retries.clear()
	next_answer = "approve"
	var answer = yield(campaigns.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")
	return answer


func _retried_on(path):
	var statuses = []
	for retry in retries:
		if retry[0] == path:
			statuses.append(retry[1])
	return statuses


# The gateway in front of the service (test/games/service-gateway.ts).
func _gateway(method, path, body):
	var http = HTTPRequest.new()
	add_child(http)
	var verb = HTTPClient.METHOD_POST if method == "POST" else HTTPClient.METHOD_GET
	var url = OS.get_environment("ENCORE_GATEWAY_URL") + "/_gateway" + path
	var error = http.request(url, ["Content-Type: application/json"], false, verb, JSON.print(body) if method == "POST" else "")
	if error != OK:
		http.queue_free()
		yield(get_tree(), "idle_frame")
		push_error("gateway %s %s: request error %d" % [method, path, error])
		return {"ok": false}
	var response = yield(http, "request_completed")
	http.queue_free()
	var text = response[3].get_string_from_utf8()
	if response[0] != HTTPRequest.RESULT_SUCCESS or response[1] != 200:
		push_error("gateway %s %s: result %d, HTTP %d %s" % [method, path, response[0], response[1], text])
		return {"ok": false}
	return {"ok": true, "body": JSON.parse(text).result}


func _env_seconds(name):
	return int(OS.get_environment(name)) / 1000.0


# The GodotSteam binding in a build without GodotSteam (as here): the addon loads, and a buy
# ends with a clear reason before anything is sent to the service.
func _no_steam():
	var godotsteam = GodotSteamBridge.new()
	add_child(godotsteam)
	var client = Campaigns.new()
	add_child(client)
	client.configure(OS.get_environment("ENCORE_BASE_URL"), OS.get_environment("ENCORE_CAMPAIGN_KEY"), godotsteam)
	var answer = yield(client.buy(OS.get_environment("ENCORE_OFFER_ID")), "completed")
	if answer.outcome != "failed" or answer.reason != "NO_STEAM_TICKET":
		return _fail("no-steam", "ended %s" % JSON.print(answer))
	_pass("no-steam", {"reason": answer.reason})


# The sample store screen (addons/encore_campaigns/example) driven like a player: wait for the
# offers, press the first Buy button, approve in the overlay, read what the screen says.
func _sample_scene():
	var screen = load("res://addons/encore_campaigns/example/store_example.tscn").instance()
	add_child(screen)
	next_answer = "approve"
	screen.setup(_client(OS.get_environment("ENCORE_BASE_URL")))
	var buttons = yield(_wait_for(screen, "_offer_buttons", 10.0), "completed")
	if buttons.size() != 2:
		return _fail("sample-scene", "the screen shows %d offers" % buttons.size())
	buttons[0].emit_signal("pressed")
	var thanked = yield(_wait_for(screen, "_thanked", 10.0), "completed")
	if not thanked:
		return _fail("sample-scene", "the screen says '%s'" % screen.status_label.text)
	_pass("sample-scene", {"status": screen.status_label.text, "funding": screen.funding_label.text, "offer": buttons[0].text})


# Polls `check(screen)` every frame until it answers something truthy or `seconds` pass.
func _wait_for(screen, check, seconds):
	var deadline = OS.get_ticks_msec() + int(seconds * 1000)
	while true:
		yield(get_tree(), "idle_frame")
		var answer = call(check, screen)
		if answer or OS.get_ticks_msec() >= deadline:
			return answer


func _offer_buttons(screen):
	var buttons = []
	for child in screen.offers_box.get_children():
		if child is Button and not child.is_queued_for_deletion() and not child.disabled:
			buttons.append(child)
	return buttons


func _thanked(screen):
	return screen.status_label.text == StoreExample.THANKS


# The overlay is up: first another order's callback (must be ignored), then the player's answer
# ("none": the player does not answer, or already did).
func _on_purchase_started(order_id, _client):
	delivered_before_begin = delivered
	if foreign_callback:
		foreign_callback = false
		steam.deliver_other_order_callback(OTHER_ORDER)
	if next_answer != "none":
		steam.answer_overlay(order_id, next_answer)


func _on_late_callback(order_id, late):
	late.append(order_id)


func _on_callback_ignored(order_id):
	ignored.append(order_id)


func _on_retrying(path, _attempt, status, _delay):
	retries.append([path, status])


func _pass(scenario, facts):
	print("SCENARIO %s OK %s" % [scenario, JSON.print(facts)])


func _fail(scenario, why):
	failures += 1
	print("SCENARIO %s FAIL %s" % [scenario, why])
