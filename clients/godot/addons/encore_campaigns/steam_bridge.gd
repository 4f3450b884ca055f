extends Node

# The Steam side of a purchase, behind one interface: godotsteam_bridge.gd talks to Steam
# through GodotSteam; simulator_steam_bridge.gd talks to the Steam simulator for tests and
# `npm run dev`. The client only ever uses what is declared here.

# The answer to request_web_api_ticket: ok, and the hex ticket or why there is none.
signal ticket_response(ok, ticket_or_reason)
# Steam's MicroTxnAuthorizationResponse_t: delivered for every order to every listener.
signal authorization_response(app_id, order_id, authorized)


# Asks Steam for a Web API ticket for `identity`; answers with ticket_response.
func request_web_api_ticket(_identity):
	call_deferred("emit_signal", "ticket_response", false, "no Steam binding")


# The player's Steam language name, e.g. "english" or "schinese".
func get_language():
	return "english"
