extends "res://addons/encore_campaigns/steam_bridge.gd"

# The real Steam binding through GodotSteam (module or GDNative build; GodotSteam 3.21+ for
# Godot 3, which has getAuthTicketForWebApi). GodotSteam registers the `Steam` singleton; it is
# looked up at run time so the addon also loads in builds without it (CI, editor, other stores).
#
#   Steam.getAuthTicketForWebApi("encore-campaign")
#     -> signal get_ticket_for_web_api(auth_ticket, result, ticket_size, ticket_buffer)
#   signal microtransaction_auth_response(app_id, order_id, authorized)
#   Steam.getCurrentGameLanguage() -> "english", "schinese", ...
#   Steam.run_callbacks() every frame (unless GodotSteam's embedded callbacks are on).

const RESULT_OK = 1

var _steam = null


func _ready():
	if not Engine.has_singleton("Steam"):
		push_warning("Encore Campaigns: GodotSteam's Steam singleton is missing")
		return
	_steam = Engine.get_singleton("Steam")
	_steam.connect("get_ticket_for_web_api", self, "_on_ticket")
	_steam.connect("microtransaction_auth_response", self, "_on_authorization")


func _process(_delta):
	if _steam != null:
		_steam.run_callbacks()


func request_web_api_ticket(identity):
	if _steam == null:
		call_deferred("emit_signal", "ticket_response", false, "Steam is not running")
		return
	if _steam.getAuthTicketForWebApi(identity) == 0:
		call_deferred("emit_signal", "ticket_response", false, "Steam refused the ticket request")


func get_language():
	return _steam.getCurrentGameLanguage() if _steam != null else "english"


func _on_ticket(_handle, result, ticket_size, ticket_buffer):
	if result != RESULT_OK:
		emit_signal("ticket_response", false, "Steam ticket result %d" % result)
		return
	var hex = ""
	for i in range(ticket_size):
		hex += "%02X" % int(ticket_buffer[i])
	emit_signal("ticket_response", true, hex)


func _on_authorization(app_id, order_id, authorized):
	emit_signal("authorization_response", app_id, str(order_id), bool(authorized))
