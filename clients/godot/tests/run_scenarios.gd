extends SceneTree

# `godot3-server --path clients/godot -s res://tests/run_scenarios.gd`: runs the scenarios of
# tests/scenarios.gd against the service and Steam simulator named in the environment
# (test/games/game-harness.ts) and exits non-zero when any failed.

func _initialize():
	var runner = load("res://tests/scenarios.gd").new()
	runner.name = "Scenarios"
	root.add_child(runner)
