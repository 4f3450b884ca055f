tool
extends EditorPlugin

# Enabling the plugin adds the client as the autoload `EncoreCampaigns`.

func _enter_tree():
	add_autoload_singleton("EncoreCampaigns", "res://addons/encore_campaigns/encore_campaigns.gd")


func _exit_tree():
	remove_autoload_singleton("EncoreCampaigns")
