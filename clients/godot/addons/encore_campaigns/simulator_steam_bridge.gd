extends "res://addons/encore_campaigns/steam_bridge.gd"

# Steam played by the Encore Steam simulator (docs/steam-simulator.md), for tests and for
# `npm run dev`: the ticket comes from its control API, and the overlay's answer is given with
# answer_overlay(), which tells the simulator what the player did and then delivers the same
# authorization callback Steam would.

var sim_url = "http://127.0.0.1:4780"
var app_id = 480
var steamid = "76561198000000001"
var language = "english"


func request_web_api_ticket(identity):
	var body = {"steamid": steamid, "appid": app_id, "identity": identity}
	var answer = yield(_control("POST", "/_sim/tickets", body), "completed")
	if answer.ok:
		emit_signal("ticket_response", true, answer.body.ticket)
	else:
		emit_signal("ticket_response", false, "simulator: %s" % answer.error)


func get_language():
	return language


# What the player does in the overlay: "approve", "decline" or "dismiss" (closes it without
# answering; Steam then reports authorized = false and the order stays open).
func answer_overlay(order_id, answer):
	if answer != "dismiss":
		var done = yield(_control("POST", "/_sim/orders/live/%s/%s" % [order_id, answer], {}), "completed")
		if not done.ok:
			push_error("simulator %s: %s" % [answer, done.error])
	else:
		yield(get_tree(), "idle_frame")
	emit_signal("authorization_response", app_id, str(order_id), answer == "approve")


# A callback for somebody else's order, as Steam delivers every order's answer to every listener.
func deliver_other_order_callback(order_id):
	emit_signal("authorization_response", app_id, str(order_id), true)


# Arms one of the simulator's faults (docs/steam-simulator.md "Faults").
func inject_fault(fault):
	var done = yield(_control("POST", "/_sim/faults", fault), "completed")
	return done.ok


# Disarms every fault still armed.
func clear_faults():
	var done = yield(_control("DELETE", "/_sim/faults", {}), "completed")
	return done.ok


func _control(method, path, body):
	var http = HTTPRequest.new()
	add_child(http)
	var verb = {"POST": HTTPClient.METHOD_POST, "DELETE": HTTPClient.METHOD_DELETE}.get(method, HTTPClient.METHOD_GET)
	var error = http.request(sim_url + path, ["Content-Type: application/json"], false, verb, JSON.print(body))
	if error != OK:
		http.queue_free()
		yield(get_tree(), "idle_frame")
		return {"ok": false, "error": "request error %d" % error}
	var response = yield(http, "request_completed")
	http.queue_free()
	var text = response[3].get_string_from_utf8()
	if response[0] != HTTPRequest.RESULT_SUCCESS or response[1] != 200:
		return {"ok": false, "error": "result %d, HTTP %d %s" % [response[0], response[1], text]}
	return {"ok": true, "body": JSON.parse(text).result}
