extends VBoxContainer

# A sample store screen wired to the client's signals: funding as the campaign's visibility
# allows, the offers with buy buttons, and a status line with the player-facing messages of
# docs/game-integration.md "Errors". Call setup() with a configured client, e.g. in a game:
#   $StoreExample.setup(EncoreCampaigns)   # after EncoreCampaigns.configure(url, key, steam)

const Campaigns = preload("res://addons/encore_campaigns/encore_campaigns.gd")

const MESSAGES = {
	"CAMPAIGN_NOT_VERIFIED": "The store is not open yet.",
	"CAMPAIGN_NOT_READY": "The store opens soon.",
	"PUBLISHER_UNAVAILABLE": "Purchases are paused right now. Please try again later.",
	"PUBLISHER_LIMIT_REACHED": "Purchases are paused for now. Please try again later.",
	"OFFER_INACTIVE": "This offer is no longer on sale.",
	"ORDER_REFUSED": "Steam could not start this purchase. Nothing was charged.",
	"PLAYER_NOT_AUTHENTICATED": "Steam could not confirm your account. Restart the game and try again.",
	"NOT_FOUND": "This store is not available.",
	"STATE_FAILED": "Steam did not complete the purchase. Nothing was charged.",
	"NO_STEAM_TICKET": "Steam is not available. Is the Steam client running?",
	"RATE_LIMITED": "The store is busy. Please try again in a moment.",
	"UNAVAILABLE": "The store can't be reached right now. Please try again in a moment.",
	"NETWORK": "The store can't be reached right now. Please try again in a moment.",
}
const THANKS = "Thank you! Your purchase keeps the servers running."
# Steam's answer did not come in time: if the player approved, the service credits it anyway.
const NO_ANSWER = "Steam did not confirm the purchase in time. If you approved it, it will be credited within a few minutes."

var client
var funding_label = Label.new()
var offers_box = VBoxContainer.new()
var status_label = Label.new()
var _purchasable = false


func _ready():
	var title = Label.new()
	title.text = "Keep the servers running"
	add_child(title)
	funding_label.text = "Loading..."
	add_child(funding_label)
	add_child(offers_box)
	add_child(status_label)


func setup(campaigns_client):
	client = campaigns_client
	client.connect("funding_loaded", self, "_on_funding")
	client.connect("offers_loaded", self, "_on_offers")
	client.connect("request_failed", self, "_on_request_failed")
	client.connect("purchase_credited", self, "_on_thanks")
	client.connect("purchase_pending", self, "_on_thanks")
	client.connect("purchase_cancelled", self, "_on_cancelled")
	client.connect("purchase_timed_out", self, "_on_timed_out")
	client.connect("purchase_failed", self, "_on_failed")
	client.load_funding()
	client.load_offers()


func _on_funding(funding):
	var days = funding.get("runwayDays")
	var balance = funding.get("balance")
	if funding.get("visibility") == "FUNDING_VISIBILITY_EXACT_BALANCE" and typeof(balance) == TYPE_DICTIONARY:
		funding_label.text = "%s of server credit" % Campaigns.money_text(balance)
		if days != null:
			funding_label.text += ", about %s days at the current rate" % days
	elif funding.get("visibility") == "FUNDING_VISIBILITY_RUNWAY" and days != null:
		funding_label.text = "About %s days of servers left" % days
	else:
		funding_label.text = "The servers are funded" if funding.get("funded") else "The servers are not funded yet"


func _on_offers(offers, purchasable, unavailable_reason):
	_purchasable = purchasable
	for child in offers_box.get_children():
		child.queue_free()
	for offer in offers:
		var button = Button.new()
		button.text = "%s - %s" % [offer.displayName, Campaigns.money_text(offer.price)]
		button.disabled = not purchasable
		button.connect("pressed", self, "_on_buy_pressed", [offer.offerId])
		offers_box.add_child(button)
	if not purchasable:
		_say(unavailable_reason)


func _on_buy_pressed(offer_id):
	_set_buttons_disabled(true)
	status_label.text = "Waiting for Steam..."
	client.buy(offer_id)


func _on_thanks(_order_id, funding):
	status_label.text = THANKS
	if typeof(funding) == TYPE_DICTIONARY:
		_on_funding(funding)
	_set_buttons_disabled(not _purchasable)


func _on_cancelled(_order_id):
	status_label.text = "Purchase cancelled. Nothing was charged."
	_set_buttons_disabled(not _purchasable)


func _on_timed_out(_order_id):
	status_label.text = NO_ANSWER
	_set_buttons_disabled(not _purchasable)


func _on_failed(_order_id, reason):
	_say(reason)
	_set_buttons_disabled(not _purchasable)


func _on_request_failed(_call, reason, _message):
	_say(reason)


func _say(reason):
	status_label.text = MESSAGES.get(reason, "Something went wrong. Please try again later.")


func _set_buttons_disabled(disabled):
	for button in offers_box.get_children():
		button.disabled = disabled
