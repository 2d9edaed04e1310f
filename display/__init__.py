"""Hall scoreboard and organisers' console fed over MQTT (not built yet)."""
